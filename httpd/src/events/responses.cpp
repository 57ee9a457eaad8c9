// responses.cpp: see responses.hpp.
#include "events/responses.hpp"

#include <cctype>

namespace corebank::httpd::events {

namespace {

HttpResponse with_headers(HttpResponse response, const std::vector<std::pair<std::string, std::string>>& headers) {
    response.headers = headers;
    return response;
}

}  // namespace

nlohmann::json validation_item(const char* type, nlohmann::json loc, const std::string& msg, nlohmann::json input) {
    // docs/events.md: `input` is null when it would take more than 1 KiB, as
    // the extension's shape problems do; echoing a huge or deeply nested
    // value would make the error body harder to read than the request.
    constexpr std::size_t echoed_input_bytes_max = 1024;
    if (!input.is_null() &&
        input.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).size() > echoed_input_bytes_max)
        input = nullptr;
    return nlohmann::json{{"type", type}, {"loc", std::move(loc)}, {"msg", msg}, {"input", std::move(input)}};
}

HttpResponse success(const nlohmann::json& data, int status, const std::string& message) {
    nlohmann::json body{{"success", true}, {"data", data}};
    if (!message.empty()) body["message"] = message;
    return json_response(status, body);
}

HttpResponse success_raw(const std::string& data_json, int status) {
    HttpResponse response;
    response.status = status;
    response.body.reserve(data_json.size() + 32);
    response.body = "{\"success\":true,\"data\":";
    response.body += data_json;
    response.body += "}";
    return response;
}

HttpResponse render(const DetailError& error) {
    return with_headers(json_response(error.status, nlohmann::json{{"detail", error.what()}}), error.headers);
}

HttpResponse render(const ValidationFailure& failure) {
    return json_response(422, nlohmann::json{{"detail", failure.items}});
}

HttpResponse render(const BusinessError& error) {
    nlohmann::json body{{"success", false}, {"error", {{"code", error.code}, {"message", error.what()}}}};
    if (!error.detail.is_null()) body["error"]["detail"] = error.detail;
    return with_headers(json_response(error.status, body), error.headers);
}

HttpResponse render_api_error(const ApiError& error) {
    std::string code = error.code;
    for (char& c : code) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    BusinessError business(error.status, code, error.what());
    business.headers = error.headers;  // Allow (405), Retry-After (503)
    return render(business);
}

}  // namespace corebank::httpd::events
