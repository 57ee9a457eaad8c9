// worker_pool.hpp: a bounded pool of threads, each owning one database
// connection (and, with read_database_url, a second one to the read replica,
// attached to it by the factory). Pistache's reactor threads never block:
// handlers hand their work here (database calls; argon2id on the password
// lane's own pool, password_lane.hpp) and the worker sends the response.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "db.hpp"

namespace corebank::httpd {

inline constexpr std::size_t worker_queue_max = 4096;

class WorkerPool {
public:
    using Job = std::function<void(Db&)>;
    using DbFactory = std::function<std::unique_ptr<Db>()>;

    // queue_max: jobs waiting beyond those running; more are refused.
    WorkerPool(int threads, DbFactory factory, std::size_t queue_max = worker_queue_max);
    ~WorkerPool();
    WorkerPool(const WorkerPool&) = delete;
    WorkerPool& operator=(const WorkerPool&) = delete;

    // false when the queue is full (the caller answers 503) or stopping.
    bool submit(Job job);
    void stop();

private:
    void run();

    DbFactory factory_;
    std::size_t queue_max_;
    std::mutex mutex_;
    std::condition_variable ready_;
    std::deque<Job> queue_;
    bool stopping_ = false;
    std::vector<std::thread> threads_;
};

}  // namespace corebank::httpd
