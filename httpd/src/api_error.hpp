// api_error.hpp: the error every handler may throw, rendered as the documented
// body {error, message, status, timestamp} (00-decisions.md, 02-identity.md).
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace corebank::httpd {

struct ApiError : std::runtime_error {
    int status;
    std::string code;
    // The bearer filter's UNAUTHORIZED carries no timestamp (02-identity.md, Errors).
    bool with_timestamp = true;
    std::vector<std::pair<std::string, std::string>> headers;

    ApiError(int status_, std::string code_, const std::string& message)
        : std::runtime_error(message), status(status_), code(std::move(code_)) {}
};

inline ApiError bad_request(const std::string& message) { return {400, "BAD_REQUEST", message}; }
inline ApiError validation_error(const std::string& message) { return {400, "VALIDATION_ERROR", message}; }
inline ApiError invalid_credentials() { return {401, "INVALID_CREDENTIALS", "Invalid credentials"}; }
inline ApiError not_found(const std::string& message) { return {404, "NOT_FOUND", message}; }
inline ApiError account_locked() { return {403, "ACCOUNT_LOCKED", "Account is locked or deactivated"}; }
inline ApiError service_unavailable(const std::string& message) { return {503, "SERVICE_UNAVAILABLE", message}; }
inline ApiError internal_error() { return {500, "INTERNAL_ERROR", "An unexpected error occurred"}; }
inline ApiError unauthorized(const std::string& message) {
    ApiError e{401, "UNAUTHORIZED", message};
    e.with_timestamp = false;
    e.headers.emplace_back("WWW-Authenticate", "Bearer");
    return e;
}
inline ApiError rate_limited(const std::string& message, int retry_after_s) {
    ApiError e{429, "RATE_LIMIT_EXCEEDED", message};
    e.headers.emplace_back("Retry-After", std::to_string(retry_after_s));
    return e;
}

}  // namespace corebank::httpd
