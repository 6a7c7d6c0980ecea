// A persistent worker pool as an engine's parallel-for for update_characters (ParallelFor): the
// threads start once and wait between frames; each frame the calling thread works alongside
// them. Header-only and independent of the benchmarks, so a host (the viewer, a test) can take
// it as it is. The library never creates threads (rule RG6): this is the host's side.
//
// A frame is cut into chunks of `chunk` items that the participants take in turn from one
// atomic counter, so a thread the OS pauses (a loaded machine) leaves its share to the others
// instead of holding up the frame. Which thread runs which character changes from frame to
// frame; the results do not (characters share nothing they write). Locks: a mutex and a
// condition variable wake the workers and wait for the last one; none is taken per chunk.
// Nothing is allocated per frame.
#pragma once

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

#include "asterune/runtime/character.hpp"

namespace asterune::bench {

class WorkerPool {
 public:
  /// `threads` participants in all, the caller included (so threads - 1 workers are started).
  explicit WorkerPool(int threads = 2, std::size_t chunk = 64) : chunk_(std::max<std::size_t>(chunk, 1)) {
    for (int t = 1; t < threads; ++t) workers_.emplace_back([this] { work(); });
  }
  ~WorkerPool() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    start_.notify_all();
    for (std::thread& t : workers_) t.join();
  }
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  int threads() const { return static_cast<int>(workers_.size()) + 1; }

  /// The ParallelFor: body(begin, end) on disjoint chunks covering [0, count), on the caller
  /// and the workers; returns when all are done. Call from one thread at a time.
  void operator()(std::size_t count, CharacterRange body) {
    if (workers_.empty() || count <= chunk_) {
      if (count > 0) body(0, count);
      return;
    }
    {
      std::lock_guard<std::mutex> lock(mutex_);
      body_ = &body;
      count_ = count;
      next_.store(0, std::memory_order_relaxed);
      pending_ = static_cast<int>(workers_.size());
      ++generation_;
    }
    start_.notify_all();
    take_chunks(body, count);
    std::unique_lock<std::mutex> lock(mutex_);
    done_.wait(lock, [this] { return pending_ == 0; });
    body_ = nullptr;
  }

 private:
  void take_chunks(const CharacterRange& body, std::size_t count) {
    for (;;) {
      const std::size_t begin = next_.fetch_add(chunk_, std::memory_order_relaxed);
      if (begin >= count) return;
      body(begin, std::min(count, begin + chunk_));
    }
  }

  void work() {
    unsigned seen = 0;
    for (;;) {
      const CharacterRange* body = nullptr;
      std::size_t count = 0;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        start_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        body = body_;
        count = count_;
      }
      take_chunks(*body, count);
      {
        std::lock_guard<std::mutex> lock(mutex_);
        if (--pending_ == 0) done_.notify_one();
      }
    }
  }

  std::size_t chunk_;
  std::vector<std::thread> workers_;
  std::mutex mutex_;
  std::condition_variable start_, done_;
  const CharacterRange* body_ = nullptr;  // the current frame's body (valid while operator() waits)
  std::size_t count_ = 0;
  std::atomic<std::size_t> next_{0};  // the next chunk's first item
  unsigned generation_ = 0;           // bumped per frame: a worker runs each frame once
  int pending_ = 0;                   // workers still in the current frame
  bool stop_ = false;
};

}  // namespace asterune::bench
