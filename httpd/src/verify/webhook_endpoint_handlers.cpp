// webhook_endpoint_handlers.cpp: webhook subscription management over HTTP
// (docs/verification.md, "Managing webhook endpoints"), Stripe's model:
// list, add (the signing secret shown once), read, rotate the secret with an
// overlap, disable, ping, and each endpoint's delivery log with a retry of a
// failed delivery; `events` limits an endpoint to some event types (Stripe's
// enabled_events). Every operation needs the scope webhooks:manage, which
// session keys do not carry: whoever can point webhooks somewhere else can
// read every session event.
//
// Ids are opaque: one that is not a UUID names nothing, so it is 404 like an
// unknown UUID. These writes take no Idempotency-Key (one is ignored):
// disable and retry change nothing when repeated, and a repeated add or
// rotate shows a new secret to the one caller who asked, whose old one an
// operator can see in the list and disable.
#include <algorithm>
#include <charconv>

#include "api_error.hpp"
#include "json_body.hpp"
#include "json_util.hpp"
#include "verify/handlers.hpp"
#include "verify/requests.hpp"
#include "verify/statements.hpp"
#include "verify/webhook_endpoints.hpp"

namespace corebank::httpd::verify {

namespace {

using nlohmann::json;

constexpr const char scope_manage[] = "webhooks:manage";
constexpr int page_limit_default = 20;
constexpr int page_limit_max = 100;

std::string id_param(const HttpRequest& request, const char* name, const char* not_found_message) {
    const auto it = request.path_params.find(name);
    const auto id = it == request.path_params.end() ? std::nullopt : canonical_uuid(it->second);
    if (!id) throw not_found(not_found_message);
    return *id;
}

std::string endpoint_id_param(const HttpRequest& request) {
    return id_param(request, "endpoint_id", "Webhook endpoint not found");
}

struct PageQuery {
    int limit = page_limit_default;
    std::optional<std::string> starting_after;
};

// ?limit=1..100&startingAfter=<id>; any other parameter is refused, so a
// misspelt one is not silently read as "the first page".
PageQuery page_query(const HttpRequest& request) {
    PageQuery page;
    std::string problems;
    const auto add = [&](const std::string& p) { problems += (problems.empty() ? "" : "; ") + p; };
    for (const auto& [name, value] : request.query) {
        if (name == "limit") {
            int limit = 0;
            const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), limit);
            if (error != std::errc() || end != value.data() + value.size() || limit < 1 || limit > page_limit_max) {
                add("limit: must be an integer between 1 and " + std::to_string(page_limit_max));
            } else {
                page.limit = limit;
            }
        } else if (name == "startingAfter") {
            page.starting_after = canonical_uuid(value);
            if (!page.starting_after) add("startingAfter: must be the id of the last item of the previous page");
        } else {
            add((name.size() > 64 ? name.substr(0, 64) + "..." : name) + ": unknown query parameter");
        }
    }
    if (!problems.empty()) throw validation_error(problems);
    return page;
}

Param optional_id(const std::optional<std::string>& id) { return id ? Param(*id) : Param(); }

json with_secret(const IssuedSecret& issued) {
    json body = issued.endpoint;
    body["secret"] = issued.secret;
    return body;
}

}  // namespace

HttpResponse webhook_endpoints_list(const Context&, const HttpRequest& request, Db& db) {
    authorize(request, db, scope_manage);
    const PageQuery page = page_query(request);
    return json_response(
        200, parse_db_json(db.exec(sql::webhook_endpoints_page,
                                   {std::to_string(page.limit), optional_id(page.starting_after)})
                               .scalar()));
}

HttpResponse webhook_endpoint_create(const Context& context, const HttpRequest& request, Db& db) {
    authorize(request, db, scope_manage);
    check_json_body_size(request.body);
    JsonBody body(request.body);
    const auto url = body.text("url", TextRule{true, 1, webhook_url_length_max, false, false});
    const auto description = body.text(
        "description", TextRule{false, 1, webhook_description_length_max, false, false});
    if (description) {
        for (const unsigned char c : *description)
            if (c < 0x20 || c == 0x7f) {
                body.problem("description", "must not contain control characters");
                break;
            }
    }
    std::optional<std::vector<std::string>> events;
    if (const auto given = body.array("events", false, 1, webhook_event_types.size())) {
        std::vector<std::string> types;
        for (const auto& item : *given) {
            const bool known = item.is_string() && std::find(webhook_event_types.begin(), webhook_event_types.end(),
                                                             item.get<std::string>()) != webhook_event_types.end();
            if (!known || std::find(types.begin(), types.end(), item.get<std::string>()) != types.end()) {
                body.problem("events", "must be distinct known event types (session.completed, session.cancelled, "
                                       "session.expired or an identity.* type of the identity service)");
                break;
            }
            types.push_back(item.get<std::string>());
        }
        events = types;
    }
    body.finish();
    const IssuedSecret issued = register_webhook_endpoint(
        db, context.keys.data_key, context.config.verify_webhook_allow_private, *url, description, events);
    HttpResponse response = json_response(201, with_secret(issued));
    response.headers.emplace_back("Location", "/v1/webhook-endpoints/" + json_string(issued.endpoint, "id"));
    return response;
}

HttpResponse webhook_endpoint_get(const Context&, const HttpRequest& request, Db& db) {
    authorize(request, db, scope_manage);
    const std::string id = endpoint_id_param(request);
    const auto found = db.exec(sql::webhook_endpoint_get, {id}).scalar();
    if (!found) throw not_found("Webhook endpoint not found");
    return json_response(200, parse_db_json(found));
}

HttpResponse webhook_endpoint_rotate(const Context& context, const HttpRequest& request, Db& db) {
    authorize(request, db, scope_manage);
    const std::string id = endpoint_id_param(request);
    check_json_body_size(request.body);
    int overlap_s = webhook_overlap_s_default;
    if (!trim_ascii(request.body).empty()) {
        JsonBody body(request.body);
        if (const auto given = body.integer("overlapSeconds", false, 0, webhook_overlap_s_max))
            overlap_s = static_cast<int>(*given);
        body.finish();
    }
    return json_response(200, with_secret(rotate_webhook_secret(db, context.keys.data_key, id, overlap_s)));
}

HttpResponse webhook_endpoint_disable(const Context&, const HttpRequest& request, Db& db) {
    authorize(request, db, scope_manage);
    const std::string id = endpoint_id_param(request);
    expect_no_body(request.body);
    return json_response(200, parse_db_json(db.exec(sql::webhook_endpoint_disable, {id}).scalar()));
}

HttpResponse webhook_endpoint_ping(const Context& context, const HttpRequest& request, Db& db) {
    authorize(request, db, scope_manage);
    const std::string id = endpoint_id_param(request);
    expect_no_body(request.body);
    const json delivery = parse_db_json(db.exec(sql::webhook_ping, {id}).scalar());
    context.wake_webhooks();
    return json_response(202, delivery);
}

HttpResponse webhook_deliveries_list(const Context&, const HttpRequest& request, Db& db) {
    authorize(request, db, scope_manage);
    const std::string id = endpoint_id_param(request);
    const PageQuery page = page_query(request);
    return json_response(
        200, parse_db_json(db.exec(sql::webhook_deliveries_page,
                                   {id, std::to_string(page.limit), optional_id(page.starting_after)})
                               .scalar()));
}

HttpResponse webhook_delivery_retry(const Context& context, const HttpRequest& request, Db& db) {
    authorize(request, db, scope_manage);
    const std::string endpoint_id = endpoint_id_param(request);
    const std::string delivery_id = id_param(request, "delivery_id", "Webhook delivery not found");
    expect_no_body(request.body);
    const json delivery = parse_db_json(db.exec(sql::webhook_delivery_retry, {endpoint_id, delivery_id}).scalar());
    context.wake_webhooks();
    return json_response(202, delivery);
}

}  // namespace corebank::httpd::verify
