// jobs_handlers.cpp: GET /v1/jobs, GET /v1/jobs/{id} and POST /v1/jobs/run
// (docs/operations.md). The run on demand drives the same database steps
// as each process's timer, so it can neither skip a date nor do a unit that
// a timer did; it answers when there is nothing to do now or its budget is
// spent, and a later call (or the timer) goes on.
#include <chrono>

#include <nlohmann/json.hpp>

#include "banking/handlers.hpp"
#include "banking/operations/eod_steps.hpp"
#include "banking/operations/handlers.hpp"
#include "banking/operations/statements.hpp"
#include "banking/parameters.hpp"
#include "json_body.hpp"
#include "query_params.hpp"

namespace corebank::httpd::core_banking {

namespace {

// A run on demand keeps the worker thread at most this long.
constexpr std::chrono::seconds run_budget{20};
constexpr std::int64_t run_steps_default = 1000;
constexpr std::int64_t run_steps_max = 100'000;
constexpr std::size_t job_name_max = 40;

Param optional(const std::optional<std::string>& value) { return value ? Param(*value) : Param(); }

}  // namespace

HttpResponse jobs_list(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "jobs.list");
    const auto date = query_date(request, "date");
    const auto job = query_text(request, "job", job_name_max);
    const auto state = query_enum_ci(request, "state", {"PENDING", "RUNNING", "SUCCEEDED", "FAILED", "SKIPPED"});
    const auto [page, size] = query_page(request);
    return pass_through(
        db.exec(sql::jobs_list, {optional(date), optional(job), optional(state), std::to_string(page), std::to_string(size)})
            .scalar());
}

HttpResponse job_get(const Context& context, const HttpRequest& request, Db& db) {
    return read_by_id(context, request, db, "jobs.get", sql::jobs_get);
}

HttpResponse jobs_run(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "jobs.run");
    const std::int64_t max_steps = query_int(request, "maxSteps", run_steps_default, 1, run_steps_max);
    expect_no_body(request.body);
    const std::string by = caller.actor_id ? *caller.actor_id : "key " + caller.key_id;
    // A step may run a whole bank's interest: the batch timeout, not the
    // request's.
    const EodRun run = run_eod_steps(db, eod_worker_name("POST /v1/jobs/run by " + by), max_steps, run_budget,
                                     context.config.batch_statement_timeout_ms);
    nlohmann::json answer = {{"steps", run.steps},
                             {"unitsRun", run.units},
                             {"unitFailures", run.unit_failures},
                             {"jobsFinished", run.jobs_finished},
                             {"stoppedBecause", eod_stop_name(run.stop)},
                             {"lastStep", nlohmann::json::parse(run.last_step.empty() ? "null" : run.last_step)},
                             {"runner", nlohmann::json::parse(db.exec(sql::jobs_runner, {}).scalar().value_or("null"))}};
    return json_response(200, answer);
}

}  // namespace corebank::httpd::core_banking
