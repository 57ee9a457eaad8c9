// clock.hpp: timestamps in the one format every response and log line uses.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace corebank::httpd {

// ISO 8601 UTC with milliseconds and a trailing Z: 2026-11-22T00:15:03.120Z
std::string iso8601_utc(std::chrono::system_clock::time_point at);
inline std::string iso8601_now() { return iso8601_utc(std::chrono::system_clock::now()); }
inline std::int64_t unix_now() {
    return std::chrono::duration_cast<std::chrono::seconds>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace corebank::httpd
