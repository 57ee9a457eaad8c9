// handlers.hpp: what the core-banking service's handlers share, and its own
// handlers outside the domains (API keys, health). Each handler: authorize
// (key, scope, staff person), validate, one call to one extension function,
// and the database's JSON goes back as it is. Each domain declares its
// handlers in its folder: ledger/handlers.hpp, deposits/handlers.hpp.
#pragma once

#include "banking/context.hpp"

namespace corebank::httpd::core_banking {

using Handler = HttpResponse (*)(const Context&, const HttpRequest&, Db&);

// api_key_handlers.cpp
HttpResponse api_keys_list(const Context&, const HttpRequest&, Db&);
HttpResponse api_key_create(const Context&, const HttpRequest&, Db&);
HttpResponse api_key_revoke(const Context&, const HttpRequest&, Db&);

// router.cpp: GET /actuator/health
HttpResponse health(const Context&, const HttpRequest&, Db&);

// The database's JSON text, sent as it is (handlers.cpp).
HttpResponse pass_through(const std::optional<std::string>& json_text, int status = 200);

// The handler shapes most resources repeat, written once: `operation` is
// the policy's name for the call, `statement` the one extension function.
// A read of the resource at :id: statement(id).
HttpResponse read_by_id(const Context& context, const HttpRequest& request, Db& db, const std::string& operation,
                        const Statement& statement);
// A change to the resource at :id whose body `parse_body` validates (a 422
// before the database is asked): statement(id, body, actor).
HttpResponse change_by_id(const Context& context, const HttpRequest& request, Db& db, const std::string& operation,
                          const Statement& statement, nlohmann::json (*parse_body)(const std::string&));
// An action on the resource at :id that takes no body (pause, issue, post):
// statement(id, actor).
HttpResponse act_on_id(const Context& context, const HttpRequest& request, Db& db, const std::string& operation,
                       const Statement& statement);

// A new API key "cb_<service>_<random>" and the prefix shown in listings.
struct NewApiKey {
    std::string key;
    std::string prefix;
};
NewApiKey generate_api_key(const std::string& service);

}  // namespace corebank::httpd::core_banking
