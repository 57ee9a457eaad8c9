// router_test.cpp: method + path-pattern dispatch (httpd/src/router.hpp).
//
// Goal: a literal segment beats a ":param" segment regardless of the order
// routes were added, parameters are filled in, a known path with the wrong
// method reports 405 with every allowed method, and an unknown path is a
// plain miss (404). Method: a router shaped like the identity service's,
// with handlers that only record which route ran.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "http_types.hpp"
#include "router.hpp"

namespace {

namespace httpd = corebank::httpd;
using httpd::HttpRequest;
using httpd::HttpResponse;
using httpd::Route;
using httpd::Router;

Route route(const std::string& method, const std::string& pattern) {
    return Route{method, pattern, httpd::RunOn::worker,
                 [pattern](const HttpRequest&, httpd::Db*) { return httpd::message_response(pattern); }};
}

// The parameter route is added first on purpose: order must not matter.
Router identity_like_router() {
    Router router;
    router.add(route("DELETE", "/auth/sessions/:id"));
    router.add(route("GET", "/auth/sessions/:id"));
    router.add(route("GET", "/auth/sessions/current"));
    router.add(route("GET", "/auth/sessions"));
    router.add(route("POST", "/auth/login"));
    router.add(route("GET", "/users/:user/sessions/:id"));
    return router;
}

HttpRequest request(const std::string& method, const std::string& path) {
    HttpRequest r;
    r.method = method;
    r.path = path;
    return r;
}

// Goal: /auth/sessions/current goes to the literal route even though a
// parameter route that also matches was added first.
TEST(Router, LiteralBeatsParameter) {
    const Router router = identity_like_router();
    HttpRequest r = request("GET", "/auth/sessions/current");
    const auto match = router.match(r);
    ASSERT_NE(match.route, nullptr);
    EXPECT_EQ(match.route->pattern, "/auth/sessions/current");
    EXPECT_TRUE(r.path_params.empty());
}

// Goal: a parameter segment captures the path segment under its name.
TEST(Router, FillsPathParameters) {
    const Router router = identity_like_router();
    HttpRequest r = request("DELETE", "/auth/sessions/0b6f2c1e-5a4d-4e3f-8c2b-1a0f9e8d7c6b");
    const auto match = router.match(r);
    ASSERT_NE(match.route, nullptr);
    EXPECT_EQ(match.route->pattern, "/auth/sessions/:id");
    EXPECT_EQ(match.route->method, "DELETE");
    EXPECT_EQ(r.path_params.at("id"), "0b6f2c1e-5a4d-4e3f-8c2b-1a0f9e8d7c6b");

    HttpRequest nested = request("GET", "/users/u-1/sessions/s-2");
    ASSERT_NE(router.match(nested).route, nullptr);
    EXPECT_EQ(nested.path_params.at("user"), "u-1");
    EXPECT_EQ(nested.path_params.at("id"), "s-2");
}

// Goal: the matched route's handler is the one that runs.
TEST(Router, MatchedHandlerRuns) {
    const Router router = identity_like_router();
    HttpRequest r = request("POST", "/auth/login");
    const auto match = router.match(r);
    ASSERT_NE(match.route, nullptr);
    EXPECT_EQ(match.route->handler(r, nullptr).body, R"({"message":"/auth/login"})");
}

// Goal: a known path with the wrong method is path_known without a route,
// listing the methods that exist for it.
TEST(Router, WrongMethodIs405WithAllowedMethods) {
    const Router router = identity_like_router();
    HttpRequest login = request("GET", "/auth/login");
    const auto login_match = router.match(login);
    EXPECT_EQ(login_match.route, nullptr);
    EXPECT_TRUE(login_match.path_known);
    EXPECT_EQ(login_match.allowed_methods, std::vector<std::string>{"POST"});

    HttpRequest session = request("PUT", "/auth/sessions/abc");
    const auto session_match = router.match(session);
    EXPECT_EQ(session_match.route, nullptr);
    EXPECT_TRUE(session_match.path_known);
    auto allowed = session_match.allowed_methods;
    std::sort(allowed.begin(), allowed.end());
    EXPECT_EQ(allowed, (std::vector<std::string>{"DELETE", "GET"}));
}

// Goal: on /auth/sessions/current the literal GET and the parameter DELETE
// both apply: DELETE reaches the parameter route, PUT is a 405 naming both.
TEST(Router, LiteralAndParameterShareAPath) {
    const Router router = identity_like_router();
    HttpRequest del = request("DELETE", "/auth/sessions/current");
    const auto del_match = router.match(del);
    ASSERT_NE(del_match.route, nullptr);
    EXPECT_EQ(del_match.route->pattern, "/auth/sessions/:id");
    EXPECT_EQ(del.path_params.at("id"), "current");

    HttpRequest put = request("PUT", "/auth/sessions/current");
    const auto put_match = router.match(put);
    EXPECT_EQ(put_match.route, nullptr);
    EXPECT_TRUE(put_match.path_known);
    auto allowed = put_match.allowed_methods;
    std::sort(allowed.begin(), allowed.end());
    allowed.erase(std::unique(allowed.begin(), allowed.end()), allowed.end());
    EXPECT_EQ(allowed, (std::vector<std::string>{"DELETE", "GET"}));
}

// Goal: an unknown path, or one with too many or too few segments, is not
// known at all (404), with no allowed methods.
TEST(Router, UnknownPathIsNotKnown) {
    const Router router = identity_like_router();
    for (const char* path : {"/nope", "/auth", "/auth/sessions/a/b", "/auth/loginx", "/"}) {
        HttpRequest r = request("GET", path);
        const auto match = router.match(r);
        EXPECT_EQ(match.route, nullptr) << path;
        EXPECT_FALSE(match.path_known) << path;
        EXPECT_TRUE(match.allowed_methods.empty()) << path;
    }
}

// Goal: method names are compared exactly (upper case as HttpRequest holds them).
TEST(Router, MethodIsCaseSensitive) {
    const Router router = identity_like_router();
    HttpRequest r = request("post", "/auth/login");
    const auto match = router.match(r);
    EXPECT_EQ(match.route, nullptr);
    EXPECT_TRUE(match.path_known);
}

}  // namespace
