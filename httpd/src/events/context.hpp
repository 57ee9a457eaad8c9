// context.hpp: what the event service's handlers share (docs/events.md).
// Configuration and the OpenAPI document; nothing another tier process would
// need, except that the first request of each process writes the platform
// registry and home country of corebank.conf into the database
// (corebank.events_configure), which every process does the same way.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <set>
#include <string>

#include "config.hpp"
#include "db.hpp"
#include "http_types.hpp"
#include "router.hpp"

namespace corebank::httpd::events {

inline constexpr const char* scope_ingest = "ingest";
inline constexpr const char* scope_read = "events:read";

struct ConfigureOnce {
    std::mutex mutex;
    std::atomic<bool> done{false};
};

struct Context {
    Config config;
    std::string openapi_document;
    std::shared_ptr<ConfigureOnce> configured = std::make_shared<ConfigureOnce>();
};

// The authenticated application: its key and the source of its events.
struct Caller {
    std::string key_id;
    std::string source;  // the key's callerId
    std::set<std::string> scopes;
};

// X-API-Key: hash lookup, revocation, per-key rate limit (all tier
// processes), then the scope. Throws DetailError 401 / 429 / 403.
Caller authorize(const HttpRequest& request, Db& db, const char* scope);

// Writes the configured registry once per process (cheap afterwards).
void ensure_configured(const Context& context, Db& db);

// Every route of the event service.
Router make_router(std::shared_ptr<const Context> context);

}  // namespace corebank::httpd::events
