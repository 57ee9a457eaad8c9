// router.hpp: method + path-pattern dispatch with ":name" segments. Our own,
// rather than Pistache's Rest::Router, so that 404, 405 and 413 answers carry
// the documented error body and every response gets the same headers and log line.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "db.hpp"
#include "http_types.hpp"

namespace corebank::httpd {

// Where a handler runs: on the reactor (cheap, no database, no hashing) or on
// a worker that owns a database connection.
enum class RunOn { reactor, worker };

struct Route {
    std::string method;
    std::string pattern;  // e.g. /auth/sessions/:id
    RunOn run_on;
    std::function<HttpResponse(const HttpRequest&, Db*)> handler;
    // Largest body this route takes; 0: the service's max_body_bytes.
    std::size_t max_body_bytes = 0;
};

struct RouteMatch {
    const Route* route = nullptr;   // null: no route for this method and path
    bool path_known = false;        // true with a null route: 405
    std::vector<std::string> allowed_methods;
};

// A route whose handler runs on a worker with a database connection and the
// service's shared context.
template <class Context>
Route worker_route(const char* method, const char* pattern,
                   HttpResponse (*handler)(const Context&, const HttpRequest&, Db&),
                   std::shared_ptr<const Context> context) {
    return Route{method, pattern, RunOn::worker, [handler, context](const HttpRequest& request, Db* db) {
                     return handler(*context, request, *db);
                 }};
}

// A route answered on the reactor thread: no database, no slow work.
template <class Context>
Route reactor_route(const char* method, const char* pattern,
                    HttpResponse (*handler)(const Context&, const HttpRequest&),
                    std::shared_ptr<const Context> context) {
    return Route{method, pattern, RunOn::reactor,
                 [handler, context](const HttpRequest& request, Db*) { return handler(*context, request); }};
}

// GET /openapi.json: the service's document, read once at start into its
// context, served as is from the reactor.
template <class Context>
Route openapi_route(std::shared_ptr<const Context> context) {
    return Route{"GET", "/openapi.json", RunOn::reactor, [context](const HttpRequest&, Db*) {
                     HttpResponse response;
                     response.body = context->openapi_document;
                     return response;
                 }};
}

class Router {
public:
    void add(Route route);
    // Fills request.path_params on a match.
    RouteMatch match(HttpRequest& request) const;
    const std::vector<Route>& routes() const { return routes_; }

private:
    std::vector<Route> routes_;
};

}  // namespace corebank::httpd
