#include "log.hpp"

#include <cstdio>
#include <mutex>

#include "clock.hpp"

namespace corebank::httpd {

void log_line(const std::string& level, nlohmann::json fields) {
    fields["ts"] = iso8601_now();
    fields["level"] = level;
    // replace invalid UTF-8 instead of throwing: a log line must never fail a request
    const std::string line = fields.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    std::fwrite(line.data(), 1, line.size(), stdout);
    std::fflush(stdout);
}

}  // namespace corebank::httpd
