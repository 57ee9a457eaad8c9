#include "worker_pool.hpp"

#include <cassert>

#include "log.hpp"

namespace corebank::httpd {

WorkerPool::WorkerPool(int threads, DbFactory factory, std::size_t queue_max)
    : factory_(std::move(factory)), queue_max_(queue_max) {
    assert(threads > 0);
    threads_.reserve(static_cast<std::size_t>(threads));
    for (int i = 0; i < threads; ++i) threads_.emplace_back([this] { run(); });
}

WorkerPool::~WorkerPool() { stop(); }

bool WorkerPool::submit(Job job) {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (stopping_ || queue_.size() >= queue_max_) return false;
        queue_.push_back(std::move(job));
    }
    ready_.notify_one();
    return true;
}

void WorkerPool::stop() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (stopping_ && threads_.empty()) return;
        stopping_ = true;
    }
    ready_.notify_all();
    for (auto& t : threads_)
        if (t.joinable()) t.join();
    threads_.clear();
}

void WorkerPool::run() {
    // The connection opens lazily on first use, so a worker starts even while
    // the database is away and reconnects by itself when it returns.
    std::unique_ptr<Db> db = factory_();
    for (;;) {
        Job job;
        {
            std::unique_lock<std::mutex> lock(mutex_);
            ready_.wait(lock, [this] { return stopping_ || !queue_.empty(); });
            if (queue_.empty()) return;  // stopping and drained
            job = std::move(queue_.front());
            queue_.pop_front();
        }
        try {
            job(*db);
        } catch (const std::exception& e) {
            // Jobs answer their own errors; reaching here is a bug, never a crash.
            log_error("worker job escaped with an exception", {{"error", e.what()}});
        } catch (...) {
            log_error("worker job escaped with an unknown exception");
        }
    }
}

}  // namespace corebank::httpd
