// rate_flusher.hpp: the thread that sends this process's API key request
// counts to the database at most once a second, every key in one statement
// (corebank.core_api_key_usage_flush), and reads back the global counts the
// rate accounting judges with (docs/design/hot-path.md).
#pragma once

#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include "banking/hot_path.hpp"
#include "db.hpp"

namespace corebank::httpd::core_banking {

class RateFlusher {
public:
    RateFlusher(std::unique_ptr<Db> db, std::shared_ptr<HotPath> hot_path);
    ~RateFlusher();
    RateFlusher(const RateFlusher&) = delete;
    RateFlusher& operator=(const RateFlusher&) = delete;

    void start();
    void stop();  // flushes what is counted, once, then returns

private:
    void loop();
    void flush_once();

    std::unique_ptr<Db> db_;
    std::shared_ptr<HotPath> hot_path_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    bool failing_ = false;  // logs once per failure streak
    std::thread thread_;
};

// Wall-clock milliseconds since the epoch: the minute a request counts in.
std::int64_t wall_now_ms();

}  // namespace corebank::httpd::core_banking
