// auth.cpp: the event service's API-key check and its one-time
// configuration of the database.
#include "clock.hpp"
#include "core/crypto.hpp"
#include "events/context.hpp"
#include "events/responses.hpp"
#include "events/statements.hpp"
#include "json_util.hpp"

namespace corebank::httpd::events {

namespace {

// Keys are "cb_<service>_<random>", far shorter; longer is not a key.
constexpr std::size_t api_key_length_max = 200;

}  // namespace

Caller authorize(const HttpRequest& request, Db& db, const char* scope) {
    const auto key = request.header("x-api-key");
    if (!key || key->find_first_not_of(" \t") == std::string::npos)
        throw DetailError(401, "Missing API key: send it in the X-API-Key header");
    if (key->size() > api_key_length_max) throw DetailError(401, "Invalid API key");
    const auto found =
        parse_db_json(db.exec(sql::api_key_authenticate, {bytea_param(core::sha256(*key))}).scalar());
    if (!found.contains("id")) throw DetailError(401, "Invalid API key");
    if (found.contains("allowed") && found["allowed"] == false) {
        const std::string limit = found.contains("rateLimitPerMinute") ? found["rateLimitPerMinute"].dump() : "?";
        DetailError limited(429, "Rate limit exceeded: this API key may make " + limit + " requests per minute");
        limited.headers.emplace_back("Retry-After", std::to_string(60 - unix_now() % 60));
        throw limited;
    }
    Caller caller;
    caller.key_id = json_string(found, "id");
    caller.source = json_string(found, "callerId");
    if (found.contains("scopes") && found["scopes"].is_array())
        for (const auto& s : found["scopes"])
            if (s.is_string()) caller.scopes.insert(s.get<std::string>());
    if (caller.scopes.count(scope) == 0)
        throw DetailError(403, std::string("This API key lacks the '") + scope + "' scope");
    // Events keys always carry a callerId (core_api_key_create refuses one
    // without); the source of every event is that id.
    if (caller.source.empty()) throw DetailError(403, "This API key has no callerId to use as the event source");
    return caller;
}

void ensure_configured(const Context& context, Db& db) {
    ConfigureOnce& once = *context.configured;
    if (once.done.load(std::memory_order_acquire)) return;
    std::lock_guard<std::mutex> lock(once.mutex);
    if (once.done.load(std::memory_order_relaxed)) return;
    db.exec(sql::configure, {text_array_param(context.config.event_platforms),
                             text_array_param(context.config.event_platforms_inactive),
                             context.config.home_country_calling_code});
    once.done.store(true, std::memory_order_release);
}

}  // namespace corebank::httpd::events
