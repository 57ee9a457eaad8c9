#include "banking/operations/eod_steps.hpp"

#include <unistd.h>

#include <stdexcept>

#include <nlohmann/json.hpp>

#include "banking/operations/statements.hpp"

namespace corebank::httpd::core_banking {

const char* eod_stop_name(EodStop stop) {
    switch (stop) {
        case EodStop::idle: return "IDLE";
        case EodStop::waiting: return "WAITING";
        case EodStop::step_limit: return "STEP_LIMIT";
        case EodStop::time_limit: return "TIME_LIMIT";
        case EodStop::stopping: return "STOPPING";
    }
    return "IDLE";
}

EodRun run_eod_steps(Db& db, const std::string& worker, std::int64_t max_steps, std::chrono::milliseconds budget,
                     int step_timeout_ms, const std::function<bool()>& stopping) {
    const auto step = [&db, &worker, step_timeout_ms] {
        return (step_timeout_ms > 0 ? db.exec_with_timeout(sql::eod_step, {worker}, step_timeout_ms)
                                    : db.exec(sql::eod_step, {worker}))
            .scalar()
            .value_or("null");
    };
    return run_eod_steps(step, max_steps, budget, stopping);
}

EodRun run_eod_steps(const std::function<std::string()>& next_step, std::int64_t max_steps,
                     std::chrono::milliseconds budget, const std::function<bool()>& stopping) {
    const auto deadline = std::chrono::steady_clock::now() + budget;
    EodRun run;
    for (;;) {
        if (run.steps >= max_steps) {
            run.stop = EodStop::step_limit;
            return run;
        }
        if (std::chrono::steady_clock::now() >= deadline) {
            run.stop = EodStop::time_limit;
            return run;
        }
        if (stopping && stopping()) {
            run.stop = EodStop::stopping;
            return run;
        }
        run.last_step = next_step();
        ++run.steps;
        const auto step = nlohmann::json::parse(run.last_step, nullptr, false);
        if (!step.is_object()) throw std::runtime_error("eod_step answered something that is not a JSON object");
        const std::string kind = step.value("step", "");
        if (kind == "idle") {
            run.stop = EodStop::idle;
            return run;
        }
        if (kind == "waiting") {
            run.stop = EodStop::waiting;
            return run;
        }
        if (kind == "unit") {
            ++run.units;
            if (step.value("state", "") != "SUCCEEDED") ++run.unit_failures;
        }
        if (kind == "finished" || kind == "skipped") ++run.jobs_finished;
    }
}

std::string eod_worker_name(const std::string& prefix) {
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
    std::string name = prefix + " " + host + ":" + std::to_string(getpid());
    if (name.size() > 200) name.resize(200);
    return name;
}

}  // namespace corebank::httpd::core_banking
