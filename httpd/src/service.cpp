// service.cpp: the bridge between Pistache and our handlers.
#include "service.hpp"

#include <algorithm>

#include <pistache/endpoint.h>
#include <pistache/http.h>

#include <chrono>

#include "clock.hpp"
#include "core/crypto.hpp"
#include "db_errors.hpp"
#include "log.hpp"
#include "password_hash.hpp"
#include "percent_decode.hpp"

namespace corebank::httpd {

using namespace Pistache;

struct Service::State {
    ServiceOptions options;
    Router router;
    WorkerPool* pool = nullptr;
};

namespace {

ApiError payload_too_large(std::size_t limit) {
    return ApiError{413, "PAYLOAD_TOO_LARGE", "Request body exceeds " + std::to_string(limit) + " bytes"};
}

// The request headers of every service together stay under this: the largest
// a client needs is a bearer token of about 1 KiB, and nothing else bounds
// them below the HTTP library's buffer (twice the body limit). A 400 with the
// error body, as for any other malformed request (docs/testing.md).
constexpr std::size_t header_bytes_max = 32 * 1024;

std::size_t header_bytes(const std::map<std::string, std::string>& headers) {
    std::size_t total = 0;
    for (const auto& [name, value] : headers) total += name.size() + value.size() + 4;  // ": " and CRLF
    return total;
}

// What the response path needs to know about the request after Pistache has
// reused its buffers.
struct ExchangeInfo {
    std::string method;
    std::string path;
    std::string request_id;
    std::string client_ip;
    bool keep_alive = false;
    std::chrono::steady_clock::time_point started;
};

// Pistache 0.0.5 writes only typed headers: addRaw() values never reach the
// wire. A header whose name is known only at run time therefore needs its own
// typed class.
class DynamicHeader : public Http::Header::Header {
public:
    DynamicHeader(std::string name, std::string value) : name_(std::move(name)), value_(std::move(value)) {}
    const char* name() const override { return name_.c_str(); }
    void write(std::ostream& stream) const override { stream << value_; }
    uint64_t hash() const override { return Http::Header::detail::hash(name_.c_str()); }

private:
    std::string name_;
    std::string value_;
};

void add_header(Http::ResponseWriter& writer, const std::string& name, const std::string& value) {
    // CR or LF in a value would split the header: drop them.
    std::string clean;
    for (char c : value)
        if (c != '\r' && c != '\n') clean.push_back(c);
    writer.headers().add(std::make_shared<DynamicHeader>(name, clean));
}

bool request_id_is_safe(const std::string& id) {
    if (id.empty() || id.size() > 64) return false;
    for (char c : id)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') return false;
    return true;
}

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

std::map<std::string, std::string> copy_headers(const Http::Request& request) {
    std::map<std::string, std::string> out;
    for (const auto& header : request.headers().list()) {
        std::ostringstream value;
        header->write(value);
        out[lower(header->name())] = value.str();
    }
    for (const auto& [name, raw] : request.headers().rawList()) out[lower(name)] = raw.value();
    return out;
}

std::string client_ip_of(const Http::Request& request, const std::map<std::string, std::string>& headers,
                         const std::vector<std::string>& trusted_proxies) {
    std::string peer = request.address().host();
    const auto xff = headers.find("x-forwarded-for");
    if (xff == headers.end()) return peer;
    bool trusted = false;
    for (const auto& proxy : trusted_proxies) trusted = trusted || proxy == peer;
    if (!trusted) return peer;
    // The last hop is the address our trusted proxy saw.
    std::string last = xff->second.substr(xff->second.rfind(',') == std::string::npos ? 0 : xff->second.rfind(',') + 1);
    const auto first = last.find_first_not_of(' ');
    const auto end = last.find_last_not_of(' ');
    if (first == std::string::npos || end - first + 1 > 45) return peer;
    return last.substr(first, end - first + 1);
}

void send_response(Http::ResponseWriter& writer, const ExchangeInfo& info, const HttpResponse& response,
                   const ServiceOptions& options) noexcept {
    try {
        add_header(writer, "X-Request-Id", info.request_id);
        bool cache_control_given = false;
        bool nosniff_given = false;
        for (const auto& [name, value] : response.headers) {
            add_header(writer, name, value);
            cache_control_given = cache_control_given || lower(name) == "cache-control";
            nosniff_given = nosniff_given || lower(name) == "x-content-type-options";
        }
        if (!cache_control_given) add_header(writer, "Cache-Control", "no-store");
        // Every response of the four services passes here (errors, 404 and
        // 413 included): a browser must never guess a JSON error body or an
        // echoed value into HTML or script (issue 13). Not the 408 of a
        // request that does not arrive in time: Pistache 0.0.5 writes that one
        // itself, empty, from TransportImpl::checkIdlePeers, never calling the
        // handler (Handler::onTimeout is for a response's timeoutAfter, which
        // the tier does not use; the override that rendered a JSON 408 there
        // was never called; tests/e2e/test_request_timeout.py).
        if (!nosniff_given) add_header(writer, "X-Content-Type-Options", "nosniff");
        if (info.keep_alive) {
            // Pistache 0.0.5 closes HTTP/1.1 connections unless the request said keep-alive.
            writer.headers().remove<Http::Header::Connection>();
            writer.headers().add<Http::Header::Connection>(Http::ConnectionControl::KeepAlive);
        }
        writer.send(static_cast<Http::Code>(response.status), response.body,
                    Http::Mime::MediaType::fromString(response.content_type));
    } catch (const std::exception& e) {
        log_error("response could not be sent", {{"error", e.what()}, {"request_id", info.request_id}});
    }
    if (options.log_requests) {
        const auto elapsed = std::chrono::steady_clock::now() - info.started;
        const double duration_ms =
            static_cast<double>(std::chrono::duration_cast<std::chrono::microseconds>(elapsed).count()) / 1000.0;
        log_line("info", {{"msg", "request"},
                          {"service", options.name},
                          {"method", info.method},
                          {"path", info.path},
                          {"status", response.status},
                          {"duration_ms", duration_ms},
                          {"request_id", info.request_id},
                          {"ip", info.client_ip}});
    }
}

class Dispatcher : public Http::Handler {
public:
    HTTP_PROTOTYPE(Dispatcher)

    explicit Dispatcher(std::shared_ptr<Service::State> state) : state_(std::move(state)) {}

    void onRequest(const Http::Request& request, Http::ResponseWriter writer) override {
        ExchangeInfo info;
        info.started = std::chrono::steady_clock::now();
        const ServiceOptions& options = state_->options;
        try {
            HttpRequest copy;
            copy.method = Http::methodString(request.method());
            copy.path = request.resource();
            copy.headers = copy_headers(request);
            bool query_malformed = false;
            for (auto it = request.query().parameters_begin(); it != request.query().parameters_end(); ++it) {
                const auto name = percent_decode(it->first, true);
                const auto value = percent_decode(it->second, true);
                if (!name || !value) query_malformed = true;
                else copy.query[*name] = *value;
            }
            const auto given_id = copy.header("x-request-id");
            copy.request_id = given_id && request_id_is_safe(*given_id) ? *given_id
                                                                         : core::hex_encode(core::random_bytes(8));
            copy.client_ip = client_ip_of(request, copy.headers, options.trusted_proxies);
            const auto connection = copy.header("connection");
            info.keep_alive = request.version() == Http::Version::Http11 &&
                              !(connection && lower(*connection).find("close") != std::string::npos);
            info.method = copy.method;
            info.path = copy.path;
            info.request_id = copy.request_id;
            info.client_ip = copy.client_ip;

            if (query_malformed) {
                send_response(writer, info, options.render_error(bad_request("Malformed query string")), options);
                return;
            }
            if (header_bytes(copy.headers) > header_bytes_max) {
                send_response(writer, info,
                              options.render_error(bad_request("Request headers exceed " +
                                                               std::to_string(header_bytes_max) + " bytes")),
                              options);
                return;
            }
            // 413 comes before 404 and 405, at the matched route's own limit
            // (the service's for every other path).
            const RouteMatch match = state_->router.match(copy);
            const std::size_t body_limit = match.route != nullptr && match.route->max_body_bytes != 0
                                               ? match.route->max_body_bytes
                                               : options.max_body_bytes;
            if (request.body().size() > body_limit) {
                send_response(writer, info, options.render_error(payload_too_large(body_limit)), options);
                return;
            }
            if (!options.unavailable_reason.empty()) {
                send_response(writer, info, options.render_error(service_unavailable(options.unavailable_reason)),
                              options);
                return;
            }
            if (match.route == nullptr) {
                if (match.path_known) {
                    ApiError e{405, "METHOD_NOT_ALLOWED", "Method " + copy.method + " is not allowed on this path"};
                    std::string allow;
                    for (const auto& m : match.allowed_methods) allow += (allow.empty() ? "" : ", ") + m;
                    e.headers.emplace_back("Allow", allow);
                    send_response(writer, info, options.render_error(e), options);
                } else {
                    send_response(writer, info, options.render_error(not_found("No such endpoint: " + copy.path)),
                                  options);
                }
                return;
            }
            copy.body = request.body();
            if (match.route->run_on == RunOn::reactor) {
                send_response(writer, info, run_handler(*match.route, copy, nullptr, options), options);
                return;
            }
            // A password route is throttled here, on the reactor, before it
            // can queue, and runs on the password lane's own workers.
            WorkerPool* pool = state_->pool;
            const PasswordLane* lane = options.password_lane.get();
            const bool on_lane = lane != nullptr && lane->serves(*match.route);
            if (on_lane) {
                const int retry_after_s = lane->throttle->admit(copy.client_ip);
                if (retry_after_s > 0) {
                    send_response(writer, info, options.render_error(password_attempts_throttled(retry_after_s)),
                                  options);
                    return;
                }
                pool = lane->pool;
            }
            // Hand the exchange to a worker; the writer travels with it.
            auto shared_writer = std::make_shared<Http::ResponseWriter>(std::move(writer));
            const Route* route = match.route;
            auto state = state_;
            const bool accepted = pool->submit(
                [state, route, shared_writer, info, on_lane, request_copy = std::move(copy)](Db& db) {
                    const std::uint64_t argon2_before = argon2_runs_on_this_thread();
                    const HttpResponse response = run_handler(*route, request_copy, &db, state->options);
                    if (on_lane && argon2_runs_on_this_thread() == argon2_before)
                        state->options.password_lane->throttle->refund(request_copy.client_ip);
                    send_response(*shared_writer, info, response, state->options);
                });
            if (!accepted && on_lane) {
                lane->throttle->refund(info.client_ip);  // it never ran
                send_response(*shared_writer, info, options.render_error(password_lane_full()), options);
            } else if (!accepted) {
                ApiError busy = service_unavailable("The server is busy; retry shortly");
                busy.headers.emplace_back("Retry-After", "1");
                send_response(*shared_writer, info, options.render_error(busy), options);
            }
        } catch (const std::exception& e) {
            log_error("request dispatch failed", {{"error", e.what()}});
            send_response(writer, info, options.render_error(internal_error()), options);
        }
    }

private:
    std::shared_ptr<Service::State> state_;
};

}  // namespace

HttpResponse render_standard_error(const ApiError& error) {
    nlohmann::json body{{"error", error.code}, {"message", error.what()}, {"status", error.status}};
    if (error.with_timestamp) body["timestamp"] = iso8601_now();
    HttpResponse response = json_response(error.status, body);
    response.headers = error.headers;
    return response;
}

HttpResponse run_handler(const Route& route, const HttpRequest& request, Db* db, const ServiceOptions& options) {
    try {
        if (db == nullptr) return route.handler(request, db);
        const ScopeReset scope_reset(*db);
        return route.handler(request, db);
    } catch (const ApiError& e) {
        return options.render_error(e);
    } catch (const DbError& e) {
        return options.render_error(api_error_from_db(e));
    } catch (const DbUnavailable& e) {
        log_error("database unavailable", {{"error", e.what()}, {"request_id", request.request_id}});
        ApiError away = service_unavailable("The database is unavailable; retry shortly");
        away.headers.emplace_back("Retry-After", "2");
        return options.render_error(away);
    } catch (const std::exception& e) {
        log_error("handler failed", {{"error", e.what()}, {"request_id", request.request_id}, {"path", request.path}});
        return options.render_error(internal_error());
    } catch (...) {
        log_error("handler failed with an unknown exception", {{"request_id", request.request_id}});
        return options.render_error(internal_error());
    }
}

Service::Service(ServiceOptions options, Router router, WorkerPool* pool)
    : state_(std::make_shared<State>(State{std::move(options), std::move(router), pool})) {}

Service::~Service() { shutdown(); }

void Service::start() {
    const auto& o = state_->options;
    endpoint_ = std::make_unique<Http::Endpoint>(Address(o.listen, Port(static_cast<uint16_t>(o.port))));
    // Pistache's own cap answers with a plain-text 413; ours (max_body_bytes,
    // or a route's own limit) answers with the error body, so Pistache's must
    // sit above the largest of them.
    std::size_t largest_body_bytes = o.max_body_bytes;
    for (const Route& route : state_->router.routes()) largest_body_bytes = std::max(largest_body_bytes, route.max_body_bytes);
    const std::size_t library_limit = largest_body_bytes * 2 + 64 * 1024;
    endpoint_->init(Http::Endpoint::options()
                        .threads(o.reactor_threads)
                        .flags(Tcp::Options::ReuseAddr | Tcp::Options::NoDelay)
                        .backlog(1024)
                        .maxRequestSize(library_limit)
                        .maxResponseSize(16 * 1024 * 1024)
                        // Past these Pistache answers 408 itself, empty, and closes
                        // (the OpenAPI documents' RequestTimeout says so).
                        .headerTimeout(std::chrono::seconds(10))
                        .bodyTimeout(std::chrono::seconds(30))
                        .keepaliveTimeout(std::chrono::seconds(60)));
    endpoint_->setHandler(Http::make_handler<Dispatcher>(state_));
    endpoint_->serveThreaded();
    log_info("service listening", {{"service", o.name}, {"listen", o.listen}, {"port", o.port}});
}

void Service::shutdown() {
    if (endpoint_) {
        endpoint_->shutdown();
        endpoint_.reset();
    }
}

}  // namespace corebank::httpd
