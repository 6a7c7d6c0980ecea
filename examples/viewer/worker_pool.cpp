#include "worker_pool.hpp"

namespace asterune::viewer {

WorkerPool::WorkerPool(int threads) {
  for (int i = 0; i < threads; ++i) threads_.emplace_back([this, i] { work(i); });
}

WorkerPool::~WorkerPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
  }
  start_.notify_all();
  for (std::thread& t : threads_) t.join();
}

void WorkerPool::run(std::size_t count, CharacterRange body) {
  std::unique_lock<std::mutex> lock(mutex_);
  body_ = &body;
  count_ = count;
  pending_ = size();
  ++generation_;
  start_.notify_all();
  done_.wait(lock, [this] { return pending_ == 0; });
  body_ = nullptr;
}

void WorkerPool::work(int index) {
  unsigned seen = 0;
  for (;;) {
    std::unique_lock<std::mutex> lock(mutex_);
    start_.wait(lock, [&] { return stop_ || generation_ != seen; });
    if (stop_) return;
    seen = generation_;
    const CharacterRange* body = body_;
    const std::size_t n = count_, parts = threads_.size();
    lock.unlock();
    // Worker i takes the i-th of `parts` nearly equal ranges (empty when count < parts).
    const std::size_t begin = n * static_cast<std::size_t>(index) / parts;
    const std::size_t end = n * static_cast<std::size_t>(index + 1) / parts;
    if (begin < end) (*body)(begin, end);
    lock.lock();
    if (--pending_ == 0) done_.notify_one();
  }
}

}  // namespace asterune::viewer
