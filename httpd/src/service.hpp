// service.hpp: one listening service (identity, core, verify, events): a
// Pistache endpoint, our router, and the shared worker pool. Every response
// leaves through one function that adds the request id, keeps the connection
// alive when the client allows it, and writes the JSON log line.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "api_error.hpp"
#include "password_lane.hpp"
#include "router.hpp"
#include "worker_pool.hpp"

namespace Pistache::Http { class Endpoint; }

namespace corebank::httpd {

struct ServiceOptions {
    std::string name;  // "identity", "core", ...: in every log line
    std::string listen = "127.0.0.1";
    int port = 0;
    int reactor_threads = 1;
    std::size_t max_body_bytes = 1048576;
    bool log_requests = true;
    std::vector<std::string> trusted_proxies;
    // When set, every request is answered 503 SERVICE_UNAVAILABLE with this
    // message: a service whose issue has not been built yet.
    std::string unavailable_reason;
    // Renders an error in this service's documented body shape.
    std::function<HttpResponse(const ApiError&)> render_error;
    // The identity service's routes that run argon2id go here instead of
    // the shared pool (password_lane.hpp); null for the other services.
    std::shared_ptr<const PasswordLane> password_lane;
};

// The body shape of 00-decisions.md: {error, message, status, timestamp}.
HttpResponse render_standard_error(const ApiError& error);

// Runs a route handler and turns every exception into the documented error;
// never throws. Shared by the HTTP path and the unit tests.
HttpResponse run_handler(const Route& route, const HttpRequest& request, Db* db, const ServiceOptions& options);

class Service {
public:
    Service(ServiceOptions options, Router router, WorkerPool* pool);
    ~Service();
    void start();     // binds and serves on background threads
    void shutdown();  // stops accepting and closes

    struct State;

private:
    std::shared_ptr<State> state_;
    std::unique_ptr<Pistache::Http::Endpoint> endpoint_;
};

}  // namespace corebank::httpd
