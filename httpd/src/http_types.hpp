// http_types.hpp: the request and response as handlers see them: plain
// copies, independent of Pistache, so handlers run on worker threads after
// Pistache has moved on, and unit tests build them by hand.
#pragma once

#include <chrono>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

namespace corebank::httpd {

struct HttpRequest {
    std::string method;  // upper case: GET, POST, ...
    std::string path;    // without the query string
    std::map<std::string, std::string> query;
    std::map<std::string, std::string> headers;  // names lower-cased
    std::map<std::string, std::string> path_params;
    std::string body;
    std::string client_ip;
    std::string request_id;

    std::optional<std::string> header(const std::string& lower_name) const {
        const auto it = headers.find(lower_name);
        if (it == headers.end()) return std::nullopt;
        return it->second;
    }
};

struct HttpResponse {
    int status = 200;
    std::string body;
    std::string content_type = "application/json";
    std::vector<std::pair<std::string, std::string>> headers;
};

inline HttpResponse json_response(int status, const nlohmann::json& body) {
    HttpResponse r;
    r.status = status;
    r.body = body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    return r;
}

inline HttpResponse message_response(const std::string& message) {
    return json_response(200, nlohmann::json{{"message", message}});
}

}  // namespace corebank::httpd
