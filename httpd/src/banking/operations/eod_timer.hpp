// operations/eod_timer.hpp: the tier's own wake-up of the end-of-day runner
// (docs/operations.md, "What wakes it"). Every eod_runner_interval_s each
// corebankd process drives corebank.eod_step until the database says there
// is nothing to do now; several processes split the units, and any process
// that lives catches up the dates missed while all were down. It holds one
// database connection of its own and no state: a restart loses nothing.
#pragma once

#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "db.hpp"

namespace corebank::httpd::core_banking {

class EodTimer {
public:
    EodTimer(std::unique_ptr<Db> db, std::chrono::seconds interval);
    ~EodTimer();
    EodTimer(const EodTimer&) = delete;
    EodTimer& operator=(const EodTimer&) = delete;

    void start();  // no thread when the interval is 0 (the runner is off here)
    void stop();

private:
    void loop();
    bool stopping();

    std::unique_ptr<Db> db_;
    std::chrono::seconds interval_;
    std::string worker_;
    std::mutex mutex_;
    std::condition_variable wake_;
    bool stopping_ = false;
    std::thread thread_;
};

}  // namespace corebank::httpd::core_banking
