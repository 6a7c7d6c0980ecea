// asterune-viewer: the engine's side of the batch API. A persistent pool of two worker threads
// (started once, kept for the viewer's life) that serves as update_characters' ParallelFor:
// each batch is cut into two disjoint ranges, one per worker, and run() returns when both are
// done. The library never creates threads (runtime/character.hpp); this is the host's own.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <thread>
#include <vector>

#include "asterune/runtime/character.hpp"

namespace asterune::viewer {

class WorkerPool {
 public:
  explicit WorkerPool(int threads = 2);
  ~WorkerPool();
  WorkerPool(const WorkerPool&) = delete;
  WorkerPool& operator=(const WorkerPool&) = delete;

  /// Calls body(begin, end) on disjoint ranges covering [0, count), one per worker, and waits.
  void run(std::size_t count, CharacterRange body);
  int size() const { return static_cast<int>(threads_.size()); }

 private:
  void work(int index);

  std::vector<std::thread> threads_;
  std::mutex mutex_;
  std::condition_variable start_, done_;
  const CharacterRange* body_ = nullptr;  // the current batch (valid while run() waits)
  std::size_t count_ = 0;
  unsigned generation_ = 0;  // bumped per batch: a worker runs each generation once
  int pending_ = 0;          // workers still running the current batch
  bool stop_ = false;
};

}  // namespace asterune::viewer
