#include "banking/operations/eod_timer.hpp"

#include "banking/operations/eod_steps.hpp"
#include "log.hpp"

namespace corebank::httpd::core_banking {

namespace {

// One wake-up does at most this much, so that stop() is prompt and a long
// catch-up shows its progress in the log; the next wake-up goes on at once.
constexpr std::int64_t steps_per_round = 2000;
constexpr std::chrono::seconds round_budget{30};
// After a database error (the database away, a statement timeout).
constexpr std::chrono::seconds error_pause{5};

}  // namespace

EodTimer::EodTimer(std::unique_ptr<Db> db, std::chrono::seconds interval)
    : db_(std::move(db)), interval_(interval), worker_(eod_worker_name("corebankd")) {}

EodTimer::~EodTimer() { stop(); }

void EodTimer::start() {
    if (interval_.count() <= 0) {
        log_info("end-of-day runner off in this process", {{"eod_runner_interval_s", 0}});
        return;
    }
    thread_ = std::thread([this] { loop(); });
}

void EodTimer::stop() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

bool EodTimer::stopping() {
    std::lock_guard<std::mutex> lock(mutex_);
    return stopping_;
}

void EodTimer::loop() {
    for (;;) {
        std::chrono::seconds pause = interval_;
        try {
            const EodRun run = run_eod_steps(*db_, worker_, steps_per_round, round_budget, 0, [this] { return stopping(); });
            if (run.units > 0 || run.jobs_finished > 0) {
                log_info("end-of-day runner", {{"steps", run.steps}, {"units", run.units},
                                               {"unitFailures", run.unit_failures}, {"jobsFinished", run.jobs_finished},
                                               {"stoppedBecause", eod_stop_name(run.stop)}});
            }
            // Still behind: go on at once rather than after the interval.
            if (run.stop == EodStop::step_limit || run.stop == EodStop::time_limit) pause = std::chrono::seconds(0);
        } catch (const std::exception& e) {
            log_error("end-of-day runner step failed", {{"error", e.what()}});
            pause = std::min(interval_, error_pause);
        }
        std::unique_lock<std::mutex> lock(mutex_);
        wake_.wait_for(lock, pause, [this] { return stopping_; });
        if (stopping_) return;
    }
}

}  // namespace corebank::httpd::core_banking
