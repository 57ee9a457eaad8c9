// responses.hpp: the event service's four body shapes
// (03-verification-and-events.md part B, "Errors"; docs/events.md):
//   success         {success: true, data, message?}
//   business error  {success: false, error: {code, message, detail?}}
//   auth / limits   {detail: "<text>"}               401, 403, 429
//   validation      {detail: [{type, loc, msg, input}, ...]}   422
// Handlers throw DetailError, ValidationFailure or BusinessError; the router
// renders them (events/router.cpp). Errors raised outside a handler (404 for
// an unknown path, 405, 413, 503 when busy) arrive as ApiError and are
// rendered by render_api_error in the business envelope.
#pragma once

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "api_error.hpp"
#include "http_types.hpp"

namespace corebank::httpd::events {

// 401, 403, 429: {detail: message}.
struct DetailError : std::runtime_error {
    int status;
    std::vector<std::pair<std::string, std::string>> headers;
    DetailError(int status_, const std::string& message) : std::runtime_error(message), status(status_) {}
};

// 422: {detail: items}; items are {type, loc, msg, input}.
struct ValidationFailure : std::runtime_error {
    nlohmann::json items;
    explicit ValidationFailure(nlohmann::json items_)
        : std::runtime_error("request validation failed"), items(std::move(items_)) {}
};

// Business errors: code is one of not_found, invalid_request,
// invalid_selector, unknown_platform, member_taken (or service codes such as
// service_unavailable).
struct BusinessError : std::runtime_error {
    int status;
    std::string code;
    nlohmann::json detail;  // null: no detail member
    std::vector<std::pair<std::string, std::string>> headers;
    BusinessError(int status_, std::string code_, const std::string& message, nlohmann::json detail_ = nullptr)
        : std::runtime_error(message), status(status_), code(std::move(code_)), detail(std::move(detail_)) {}
};

// One 422 item; loc starts with "body", "query" or "path".
nlohmann::json validation_item(const char* type, nlohmann::json loc, const std::string& msg, nlohmann::json input);

HttpResponse success(const nlohmann::json& data, int status = 200, const std::string& message = "");
// data is JSON text from the database, embedded without re-parsing.
HttpResponse success_raw(const std::string& data_json, int status = 200);

HttpResponse render(const DetailError& error);
HttpResponse render(const ValidationFailure& failure);
HttpResponse render(const BusinessError& error);
// ServiceOptions.render_error of the event service.
HttpResponse render_api_error(const ApiError& error);

}  // namespace corebank::httpd::events
