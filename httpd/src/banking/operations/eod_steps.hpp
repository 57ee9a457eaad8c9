// operations/eod_steps.hpp: driving the end-of-day runner from the tier.
// Every decision (which date, which job, which unit, retries) is the
// database's (corebank.eod_step); this only calls it until it says there is
// nothing to do now, within a budget of steps and time.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <string>

#include "db.hpp"

namespace corebank::httpd::core_banking {

// Why a run of steps stopped.
enum class EodStop { idle, waiting, step_limit, time_limit, stopping };

const char* eod_stop_name(EodStop stop);  // IDLE, WAITING, STEP_LIMIT, TIME_LIMIT, STOPPING

struct EodRun {
    std::int64_t steps = 0;
    std::int64_t units = 0;          // steps that ran a unit
    std::int64_t unit_failures = 0;  // units that raised (retried or FAILED)
    std::int64_t jobs_finished = 0;  // jobs finished or skipped
    EodStop stop = EodStop::idle;
    std::string last_step;           // the last step's JSON, as the database wrote it
};

// Takes steps (`next_step` returns one step's JSON) until one answers idle
// or waiting, `max_steps` steps are done, `budget` has passed, or
// `stopping()` says so. Errors of `next_step` propagate; a step that is not
// a JSON object throws std::runtime_error.
EodRun run_eod_steps(const std::function<std::string()>& next_step, std::int64_t max_steps,
                     std::chrono::milliseconds budget, const std::function<bool()>& stopping = {});

// The same with corebank.eod_step(worker) on `db` as the step: each step is
// its own transaction (autocommit), under statement_timeout
// `step_timeout_ms` (0: the connection's own).
EodRun run_eod_steps(Db& db, const std::string& worker, std::int64_t max_steps, std::chrono::milliseconds budget,
                     int step_timeout_ms, const std::function<bool()>& stopping = {});

// "<prefix> <hostname>:<pid>": who ran a unit (eod_job_units.worker), at
// most 200 characters.
std::string eod_worker_name(const std::string& prefix);

}  // namespace corebank::httpd::core_banking
