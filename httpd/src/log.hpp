// log.hpp: one JSON object per line on stdout. Callers pass only fields that
// are safe to log: never passwords, tokens, keys or request bodies.
#pragma once

#include <nlohmann/json.hpp>
#include <string>

namespace corebank::httpd {

void log_line(const std::string& level, nlohmann::json fields);
inline void log_info(const std::string& message, nlohmann::json fields = nlohmann::json::object()) {
    fields["msg"] = message;
    log_line("info", std::move(fields));
}
inline void log_error(const std::string& message, nlohmann::json fields = nlohmann::json::object()) {
    fields["msg"] = message;
    log_line("error", std::move(fields));
}

}  // namespace corebank::httpd
