#include "banking/operations/jobs_command.hpp"

#include <chrono>
#include <cstdio>
#include <iostream>
#include <map>
#include <optional>

#include <nlohmann/json.hpp>

#include "banking/operations/eod_steps.hpp"
#include "banking/operations/statements.hpp"
#include "db.hpp"
#include "db_errors.hpp"

namespace corebank::httpd::core_banking {

namespace {

int usage_error(const std::string& message) {
    std::cerr << "corebankd: " << message << "\n"
              << "usage: corebankd jobs [run] [--date YYYY-MM-DD] [--job NAME] [--state STATE] [--size N] [--json]\n";
    return 2;
}

std::string text_of(const nlohmann::json& value) {
    if (value.is_null()) return "-";
    if (value.is_string()) return value.get<std::string>();
    return value.dump();
}

// One line a job: date, job, state, units, duration, and its first error.
void print_job(const nlohmann::json& job) {
    char line[512];
    const std::string duration = job["durationMs"].is_null() ? "-" : std::to_string(job["durationMs"].get<long long>()) + " ms";
    std::snprintf(line, sizeof line, "%-10s  %-18s  %-9s  %6lld %6lld %6lld %6lld  %10s", text_of(job["businessDate"]).c_str(),
                  text_of(job["job"]).c_str(), text_of(job["state"]).c_str(), job["unitsTotal"].get<long long>(),
                  job["unitsSucceeded"].get<long long>(), job["unitsFailed"].get<long long>(),
                  job["unitsPending"].get<long long>(), duration.c_str());
    std::cout << line;
    if (!job["report"].is_null()) std::cout << "  " << text_of(job["report"]);
    if (!job["errors"].empty()) std::cout << "  " << job["errors"].size() << " error(s), first: " << text_of(job["errors"][0]["error"]);
    std::cout << "\n";
}

}  // namespace

int run_jobs_command(const Config& config, const std::vector<std::string>& args) {
    bool run = false;
    bool json = false;
    std::map<std::string, std::string> flags;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (i == 0 && arg == "run") {
            run = true;
        } else if (arg == "--json") {
            json = true;
        } else if (arg == "--date" || arg == "--job" || arg == "--state" || arg == "--size") {
            if (i + 1 >= args.size()) return usage_error(arg + " needs a value");
            flags[arg.substr(2)] = args[++i];
        } else {
            return usage_error("unknown argument " + arg);
        }
    }
    const auto flag = [&flags](const char* name) { return flags.count(name) ? Param(flags.at(name)) : Param(); };
    try {
        Db db(config.database_url, {});
        if (run) {
            const EodRun done = run_eod_steps(db, eod_worker_name("corebankd jobs run"), 1'000'000,
                                              std::chrono::hours(24), 0);
            if (!json)
                std::cout << "ran " << done.steps << " steps: " << done.units << " units (" << done.unit_failures
                          << " failed), " << done.jobs_finished << " jobs finished; stopped: " << eod_stop_name(done.stop)
                          << "\n";
        }
        const auto page = nlohmann::json::parse(
            db.exec(sql::jobs_list, {flag("date"), flag("job"), flag("state"), Param("0"),
                                     flags.count("size") ? Param(flags.at("size")) : Param("25")})
                .scalar()
                .value_or("{}"));
        if (json) {
            std::cout << page.dump(2) << "\n";
            return 0;
        }
        const auto& r = page["runner"];
        std::cout << "business date " << text_of(r["businessDate"]) << " · closed through " << text_of(r["closedThrough"])
                  << " · next " << text_of(r["nextDate"]) << " · behind " << text_of(r["lagDays"]) << " day(s) · "
                  << text_of(r["runningJobs"]) << " unfinished · " << text_of(r["failedJobs"]) << " failed\n";
        std::cout << "DATE        JOB                 STATE       UNITS     OK FAILED   LEFT    DURATION\n";
        for (const auto& job : page["content"]) print_job(job);
        if (page["totalElements"].get<long long>() > static_cast<long long>(page["content"].size()))
            std::cout << "(" << page["content"].size() << " of " << page["totalElements"] << " jobs; --size, --date, --job, --state)\n";
        return 0;
    } catch (const DbError& e) {
        std::cerr << "corebankd: " << api_error_from_db(e).what() << "\n";
        return 2;
    } catch (const std::exception& e) {
        std::cerr << "corebankd: " << e.what() << "\n";
        return 2;
    }
}

}  // namespace corebank::httpd::core_banking
