// rate_flusher.cpp: see rate_flusher.hpp.
#include "banking/rate_flusher.hpp"

#include <chrono>
#include <string>
#include <vector>

#include "banking/statements.hpp"
#include "json_util.hpp"
#include "log.hpp"

namespace corebank::httpd::core_banking {

std::int64_t wall_now_ms() {
    return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::system_clock::now().time_since_epoch())
        .count();
}

RateFlusher::RateFlusher(std::unique_ptr<Db> db, std::shared_ptr<HotPath> hot_path)
    : db_(std::move(db)), hot_path_(std::move(hot_path)) {}

RateFlusher::~RateFlusher() { stop(); }

void RateFlusher::start() { thread_ = std::thread([this] { loop(); }); }

void RateFlusher::stop() {
    {
        std::lock_guard<std::mutex> lock(mutex_);
        if (stopping_) return;
        stopping_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void RateFlusher::loop() {
    for (;;) {
        {
            std::unique_lock<std::mutex> lock(mutex_);
            wake_.wait_for(lock, std::chrono::milliseconds(HotPath::flush_interval_ms), [this] { return stopping_; });
        }
        flush_once();
        std::lock_guard<std::mutex> lock(mutex_);
        if (stopping_) return;
    }
}

void RateFlusher::flush_once() {
    const auto batch = hot_path_->rates.take_batch(wall_now_ms());
    if (batch.empty()) return;
    std::vector<std::string> ids, minutes, counts;
    for (const auto& entry : batch) {
        ids.push_back(entry.key_id);
        minutes.push_back(std::to_string(entry.minute));
        counts.push_back(std::to_string(entry.count));
    }
    try {
        const auto answer = parse_db_json(
            db_->exec(sql::api_key_usage_flush,
                      {text_array_param(ids), text_array_param(minutes), text_array_param(counts)})
                .scalar());
        if (!answer.is_array() || answer.size() != batch.size())
            throw std::runtime_error("core_api_key_usage_flush answered a different number of totals");
        std::vector<std::int64_t> totals;
        for (const auto& total : answer) totals.push_back(total.is_number_integer() ? total.get<std::int64_t>() : 0);
        hot_path_->rates.flushed(batch, totals);
        if (failing_) log_info("API key usage flushes succeed again");
        failing_ = false;
    } catch (const std::exception& e) {
        hot_path_->rates.flush_failed(batch);
        if (!failing_) log_error("API key usage flush failed; the counts are kept for the next one", {{"error", e.what()}});
        failing_ = true;
    }
}

}  // namespace corebank::httpd::core_banking
