// eod_steps_test.cpp: the tier's driving of the end-of-day runner
// (banking/operations/eod_steps.hpp): it stops exactly when the database
// says there is nothing to do now, or at its budgets, and counts what the
// steps did. The steps themselves are the database's (pgtap/eod_runner.sql).
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "banking/operations/eod_steps.hpp"

namespace corebank::httpd::core_banking {
namespace {

// A scripted database: answers `steps` in turn, then idle forever.
struct Script {
    std::vector<std::string> steps;
    std::size_t taken = 0;
    std::string operator()() { return taken < steps.size() ? steps[taken++] : R"({"step":"idle"})"; }
};

constexpr std::chrono::milliseconds ample{60'000};

// Goal: a catch-up of several steps stops at idle and counts units, failed
// units and finished or skipped jobs.
TEST(EodSteps, StopsAtIdleAndCounts) {
    Script script{{R"({"step":"opened","businessDate":"2026-11-26"})", R"({"step":"started","units":2})",
                   R"({"step":"unit","state":"SUCCEEDED"})", R"({"step":"unit","state":"PENDING","error":"x"})",
                   R"({"step":"unit","state":"FAILED","error":"x"})", R"({"step":"finished","state":"FAILED"})",
                   R"({"step":"skipped"})", R"({"step":"idle","nextDate":"2026-11-27"})",
                   R"({"step":"unit","state":"SUCCEEDED"})"}};
    const EodRun run = run_eod_steps(std::ref(script), 100, ample);
    EXPECT_EQ(run.stop, EodStop::idle);
    EXPECT_EQ(run.steps, 8);
    EXPECT_EQ(script.taken, 8u) << "no step after idle";
    EXPECT_EQ(run.units, 3);
    EXPECT_EQ(run.unit_failures, 2);
    EXPECT_EQ(run.jobs_finished, 2);
    EXPECT_EQ(run.last_step, R"({"step":"idle","nextDate":"2026-11-27"})");
    EXPECT_STREQ(eod_stop_name(run.stop), "IDLE");
}

// Goal: waiting (units in another process's hands or backing off) stops the
// run: it is not a loop that spins on the database.
TEST(EodSteps, StopsAtWaiting) {
    Script script{{R"({"step":"unit","state":"SUCCEEDED"})", R"({"step":"waiting","jobId":"j"})"}};
    const EodRun run = run_eod_steps(std::ref(script), 100, ample);
    EXPECT_EQ(run.stop, EodStop::waiting);
    EXPECT_EQ(run.steps, 2);
    EXPECT_STREQ(eod_stop_name(run.stop), "WAITING");
}

// Goal: the step budget bounds a call however much work is left.
TEST(EodSteps, StopsAtTheStepLimit) {
    Script script{std::vector<std::string>(50, R"({"step":"unit","state":"SUCCEEDED"})")};
    const EodRun run = run_eod_steps(std::ref(script), 7, ample);
    EXPECT_EQ(run.stop, EodStop::step_limit);
    EXPECT_EQ(run.steps, 7);
    EXPECT_EQ(run.units, 7);
}

// Goal: the time budget bounds a call (a spent budget takes no step).
TEST(EodSteps, StopsAtTheTimeLimit) {
    Script script{std::vector<std::string>(50, R"({"step":"unit","state":"SUCCEEDED"})")};
    const EodRun run = run_eod_steps(std::ref(script), 100, std::chrono::milliseconds(0));
    EXPECT_EQ(run.stop, EodStop::time_limit);
    EXPECT_EQ(run.steps, 0);
}

// Goal: shut-down stops the timer's run between two steps.
TEST(EodSteps, StopsWhenStopping) {
    Script script{std::vector<std::string>(50, R"({"step":"unit","state":"SUCCEEDED"})")};
    int asked = 0;
    const EodRun run = run_eod_steps(std::ref(script), 100, ample, [&asked] { return ++asked > 3; });
    EXPECT_EQ(run.stop, EodStop::stopping);
    EXPECT_EQ(run.steps, 3);
}

// Goal: an answer that is not a JSON object is an error, not a silent stop.
TEST(EodSteps, RefusesAnAnswerThatIsNotAnObject) {
    for (const char* answer : {"null", "not json", "[]", "\"idle\""}) {
        Script script{{answer}};
        EXPECT_THROW(run_eod_steps(std::ref(script), 10, ample), std::runtime_error) << answer;
    }
}

// Goal: the worker name fits eod_job_units.worker (200 characters) and says
// which process it is.
TEST(EodSteps, WorkerNameIsBoundedAndNamesTheProcess) {
    const std::string name = eod_worker_name("corebankd");
    EXPECT_EQ(name.rfind("corebankd ", 0), 0u);
    EXPECT_NE(name.find(':'), std::string::npos);
    EXPECT_LE(eod_worker_name(std::string(500, 'x')).size(), 200u);
}

}  // namespace
}  // namespace corebank::httpd::core_banking
