// handlers.cpp: /console/ routes and the console's API (see console.hpp).
//
//   GET  /console/, /console/app.js, /console/app.css   the page (no data)
//   POST /console/api/login                             forwarded to the identity service's /auth/login
//   GET  /console/api/approvals[?status=]               = GET /v1/approvals
//   GET  /console/api/approvals/{id}                    = GET /v1/approvals/{id} (before, proposed, current)
//   POST /console/api/approvals/{id}/approve|reject     = POST /v1/approvals/{id}/approve|reject
// Each API call needs the staff token (Authorization: Bearer) before
// anything else: without one it is 401 and no key is attached. A key the
// browser sends is replaced, never used.
#include <curl/curl.h>

#include <fstream>
#include <memory>
#include <sstream>

#include "api_error.hpp"
#include "banking/handlers.hpp"
#include "banking/ledger/handlers.hpp"
#include "console/console.hpp"

namespace corebank::httpd::console {

namespace {

using core_banking::Context;
using core_banking::Handler;

constexpr std::size_t key_file_bytes_max = 1024;
constexpr long login_timeout_ms = 15'000;
constexpr std::size_t login_answer_bytes_max = 64 * 1024;

// Read on each call, so a rotated key acts without a restart (a small file).
// No console_key_file: the console is off on this server, 404 (a 5xx would
// say the server failed). Named but unreadable or empty: 503, the
// operator's mistake.
std::string console_key(const Context& context) {
    if (context.config.console_key_file.empty())
        throw ApiError{404, "NOT_FOUND", "The approvals console is not enabled on this server (console_key_file)"};
    const ApiError unconfigured{503, "SERVICE_UNAVAILABLE",
                                "The approvals console's key file is missing or empty (console_key_file)"};
    std::ifstream file(context.config.console_key_file, std::ios::binary);
    std::string key(key_file_bytes_max, '\0');
    file.read(key.data(), static_cast<std::streamsize>(key.size()));
    key.resize(static_cast<std::size_t>(file.gcount()));
    while (!key.empty() && (key.back() == '\n' || key.back() == '\r' || key.back() == ' ')) key.pop_back();
    if (key.empty()) throw unconfigured;
    return key;
}

// Listing and reading name no actor on /v1/approvals; the console answers
// only a live staff session, so a read is first authorised as a decision is
// (key, token, session not revoked, second factor; no operation's permission).
template <Handler inner, bool read>
HttpResponse with_console_key(const Context& context, const HttpRequest& request, Db& db) {
    if (!request.header("authorization")) {
        ApiError refused{401, "UNAUTHORIZED", "Log in to the console: send Authorization: Bearer <access token>"};
        refused.headers.emplace_back("WWW-Authenticate", "Bearer");
        throw refused;
    }
    HttpRequest forwarded = request;
    forwarded.headers["x-api-key"] = console_key(context);
    if (read) core_banking::authorize(context, forwarded, db, "approvals.approve");
    return inner(context, forwarded, db);
}

std::size_t collect(char* data, std::size_t size, std::size_t count, void* sink) {
    auto* body = static_cast<std::string*>(sink);
    if (body->size() + size * count > login_answer_bytes_max) return 0;  // aborts the transfer
    body->append(data, size * count);
    return size * count;
}

// The identity service of this process, on the loopback when it listens on
// every address.
std::string identity_login_url(const Context& context) {
    const std::string& listen = context.config.listen;
    const std::string host = listen.empty() || listen == "0.0.0.0" || listen == "::" ? "127.0.0.1" : listen;
    return "http://" + host + ":" + std::to_string(context.config.identity_port) + "/auth/login";
}

// The identity service has no CORS, and the console's CSP allows only its
// own origin: the tier forwards the body as it is, with the caller's address
// (which identity trusts only from trusted_proxies), and answers identity's
// status and body.
HttpResponse login(const Context& context, const HttpRequest& request, Db&) {
    std::unique_ptr<CURL, void (*)(CURL*)> handle(curl_easy_init(), curl_easy_cleanup);
    if (!handle) throw std::runtime_error("curl_easy_init failed");
    struct curl_slist* list = nullptr;
    list = curl_slist_append(list, "Content-Type: application/json");
    list = curl_slist_append(list, ("X-Forwarded-For: " + request.client_ip).c_str());
    std::unique_ptr<curl_slist, void (*)(curl_slist*)> headers(list, curl_slist_free_all);
    const std::string url = identity_login_url(context);
    std::string body;
    curl_easy_setopt(handle.get(), CURLOPT_URL, url.c_str());
    curl_easy_setopt(handle.get(), CURLOPT_PROTOCOLS_STR, "http");
    curl_easy_setopt(handle.get(), CURLOPT_POST, 1L);
    curl_easy_setopt(handle.get(), CURLOPT_POSTFIELDS, request.body.data());
    curl_easy_setopt(handle.get(), CURLOPT_POSTFIELDSIZE, static_cast<long>(request.body.size()));
    curl_easy_setopt(handle.get(), CURLOPT_HTTPHEADER, headers.get());
    curl_easy_setopt(handle.get(), CURLOPT_TIMEOUT_MS, login_timeout_ms);
    curl_easy_setopt(handle.get(), CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(handle.get(), CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(handle.get(), CURLOPT_WRITEDATA, &body);
    if (curl_easy_perform(handle.get()) != CURLE_OK)
        throw ApiError{503, "SERVICE_UNAVAILABLE", "The identity service did not answer the login"};
    long status = 0;
    curl_easy_getinfo(handle.get(), CURLINFO_RESPONSE_CODE, &status);
    HttpResponse response;
    response.status = static_cast<int>(status);
    response.body = body;
    response.headers.emplace_back("Cache-Control", "no-store");
    return response;
}

Route page(const char* pattern, HttpResponse (*content)(const HttpRequest&)) {
    return Route{"GET", pattern, RunOn::reactor, [content](const HttpRequest& request, Db*) { return content(request); }};
}

Route worker(const char* method, const char* pattern, Handler handler, const std::shared_ptr<const Context>& context) {
    return worker_route(method, pattern, handler, context);
}

}  // namespace

void add_routes(Router& r, const std::shared_ptr<const Context>& c) {
    r.add(page("/console/", page_html));
    r.add(page("/console/app.js", page_script));
    r.add(page("/console/app.css", page_style));
    r.add(worker("POST", "/console/api/login", login, c));
    r.add(worker("GET", "/console/api/approvals", with_console_key<core_banking::approvals_list, true>, c));
    r.add(worker("GET", "/console/api/approvals/:id", with_console_key<core_banking::approval_get, true>, c));
    r.add(worker("POST", "/console/api/approvals/:id/approve", with_console_key<core_banking::approval_approve, false>, c));
    r.add(worker("POST", "/console/api/approvals/:id/reject", with_console_key<core_banking::approval_reject, false>, c));
}

}  // namespace corebank::httpd::console
