// discovery_handlers.cpp: what lets others find and verify us: JWKS, OpenID
// discovery, OpenAPI, health, and the page a reset link opens.
#include "api_error.hpp"
#include "auth/account_handlers.hpp"
#include "auth/statements.hpp"
#include "json_util.hpp"
#include "query_params.hpp"

namespace corebank::httpd::auth {

namespace sql_health {
// Whether the database can sign (its root key loads); also the health
// check's round trip to the database.
inline const Statement can_sign{"auth_can_sign", "SELECT corebank.auth_can_sign()", 0};
}  // namespace sql_health

namespace {

// The page a reset mail links to: reads #token= from the fragment (never
// sent to a server), drops it from the address bar, asks for the new password
// twice and posts JSON to /auth/password/reset. No third-party code.
const char* const reset_form_html = R"HTML(<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Choose a new password</title>
<style>body{font-family:system-ui,sans-serif;max-width:26rem;margin:3rem auto;padding:0 1rem;color:#1d2733}
label{display:block;margin:.8rem 0 .3rem}input{width:100%;padding:.5rem;box-sizing:border-box}
button{margin-top:1rem;padding:.6rem 1.2rem}#out{margin-top:1rem}</style></head>
<body><h1>Choose a new password</h1>
<form id="f"><label for="p1">New password (8 to 128 characters)</label>
<input id="p1" type="password" minlength="8" maxlength="128" required autocomplete="new-password">
<label for="p2">Repeat it</label><input id="p2" type="password" minlength="8" maxlength="128" required autocomplete="new-password">
<button type="submit">Set password</button></form><p id="out" role="status"></p>
<script>
const token = new URLSearchParams(location.hash.slice(1)).get("token") || "";
if (location.hash) history.replaceState(null, "", location.pathname);
const out = document.getElementById("out");
document.getElementById("f").addEventListener("submit", async (e) => {
  e.preventDefault();
  const p1 = document.getElementById("p1").value, p2 = document.getElementById("p2").value;
  if (p1 !== p2) { out.textContent = "The two passwords differ."; return; }
  const r = await fetch("/auth/password/reset", {method: "POST", headers: {"Content-Type": "application/json"},
                        body: JSON.stringify({token: token, newPassword: p1})});
  const body = await r.json().catch(() => ({}));
  out.textContent = body.message || ("Error " + r.status);
});
</script></body></html>
)HTML";

}  // namespace

bool is_uuid(const std::string& text) { return is_uuid_text(text); }

HttpResponse handle_jwks(const Context& context, const HttpRequest&, Db& db) {
    auto jwks = parse_db_json(db.exec(sql::jwks, {}).scalar());
    context.verifier->load_jwks(jwks);
    HttpResponse response = json_response(200, jwks);
    response.headers.emplace_back("Cache-Control", "public, max-age=60");
    return response;
}

// GET /health: 503 DOWN while the database is away; 200 DEGRADED when the
// database answers but cannot load the root key that seals the signing keys
// (logins, refreshes and client tokens then answer 503). 200, not 503: every
// corebankd shares the one database and its root key setting, so a balancer
// that took this node out would take them all out, and with them what still
// works (token verification, the JWKS, the other services). The problem is
// the database server's, for an operator (docs/operations.md, "Health");
// why the file does not load stays in ./corebank status and the server's
// log, not on a public endpoint.
HttpResponse handle_health(const Context&, const HttpRequest&, Db& db) {
    try {
        const auto can_sign = db.exec(sql_health::can_sign, {}).scalar();
        if (can_sign && *can_sign == "t") return json_response(200, nlohmann::json{{"status", "UP"}, {"database", "UP"}});
        return json_response(200, nlohmann::json{
                                      {"status", "DEGRADED"},
                                      {"database", "UP"},
                                      {"signing", "DOWN"},
                                      {"problems", {"signing: the database cannot load its root key "
                                                    "(corebank.root_key_file), so logins, token refreshes and "
                                                    "client tokens answer 503; ./corebank status and the database "
                                                    "server's log say why"}},
                                  });
    } catch (const DbUnavailable&) {
        return json_response(503, nlohmann::json{{"status", "DOWN"}, {"database", "DOWN"}});
    }
}

HttpResponse handle_openid_configuration(const Context& context, const HttpRequest&) {
    const std::string& issuer = context.config.issuer;
    return json_response(200, nlohmann::json{
                                  {"issuer", issuer},
                                  {"jwks_uri", issuer + "/.well-known/jwks.json"},
                                  {"token_endpoint", issuer + "/oauth/token"},
                                  {"introspection_endpoint", issuer + "/oauth/introspect"},
                                  // Only what POST /oauth/token serves (oauth_handlers.cpp): users sign
                                  // in and refresh through /auth/login and /auth/token/refresh instead.
                                  {"grant_types_supported", {"client_credentials"}},
                                  {"token_endpoint_auth_methods_supported", {"client_secret_basic", "client_secret_post"}},
                                  // RFC 8414: introspection authenticates clients as the token endpoint does.
                                  {"introspection_endpoint_auth_methods_supported",
                                   {"client_secret_basic", "client_secret_post"}},
                                  {"id_token_signing_alg_values_supported", {"RS256"}},
                                  {"response_types_supported", nlohmann::json::array()},
                                  {"subject_types_supported", {"public"}},
                              });
}

HttpResponse handle_reset_form(const Context&, const HttpRequest&) {
    HttpResponse response;
    response.status = 200;
    response.body = reset_form_html;
    response.content_type = "text/html; charset=utf-8";
    response.headers.emplace_back("Content-Security-Policy",
                                  "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; "
                                  "connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'");
    // No framing: a page that takes a new password must not be overlaid (clickjacking).
    response.headers.emplace_back("X-Frame-Options", "DENY");
    response.headers.emplace_back("Referrer-Policy", "no-referrer");
    return response;
}

}  // namespace corebank::httpd::auth
