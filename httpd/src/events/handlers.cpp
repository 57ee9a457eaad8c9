// handlers.cpp: the event service's operations (docs/events.md). Each one:
// authorize (key and scope), read and bound the request, one call to one
// extension function, and the database's JSON goes back inside the success
// envelope without being re-parsed (payloads keep their exact numbers).
#include "events/handlers.hpp"

#include <chrono>
#include <thread>

#include "core/crypto.hpp"
#include "events/requests.hpp"
#include "events/responses.hpp"
#include "events/statements.hpp"
#include "json_util.hpp"
#include "log.hpp"

namespace corebank::httpd::events {

namespace {

using nlohmann::json;

// A batch that deadlocked with another (two batches inserting the same new
// eventIds or identifiers in opposite orders), or that lost an identity-graph
// race three times in one event, is retried whole: ingest is idempotent.
// Each deadlock costs PostgreSQL's deadlock_timeout (1 s) to detect.
constexpr int ingest_attempts_max = 5;

Param optional_int(const std::optional<std::int64_t>& value) {
    return value ? Param(std::to_string(*value)) : Param();
}

const std::string& required_text(const std::optional<std::string>& text) {
    if (!text) throw BusinessError(404, "not_found", "Customer not found");
    return *text;
}

void backoff(int attempt) {
    const auto jitter = static_cast<unsigned char>(core::random_bytes(1)[0]) % 20;
    std::this_thread::sleep_for(std::chrono::milliseconds(20 * attempt + jitter));
}

}  // namespace

HttpResponse ingest(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(request, db, scope_ingest);
    const std::string body = check_ingest_body(request.body);
    ensure_configured(context, db);
    for (int attempt = 1;; ++attempt) {
        try {
            const auto result = db.exec(sql::ingest, {caller.source, body}).scalar();
            return success_raw(result.value());
        } catch (const DbError& error) {
            const bool retry = error.sqlstate == "40001" || error.sqlstate == "40P01";
            if (!retry || attempt >= ingest_attempts_max) throw;
            log_info("ingest retried", {{"sqlstate", error.sqlstate}, {"attempt", attempt},
                                        {"request_id", request.request_id}});
            backoff(attempt);
        }
    }
}

HttpResponse feed(const Context& context, const HttpRequest& request, Db& db) {
    authorize(request, db, scope_read);
    const Page page = read_page(request);
    ensure_configured(context, db);
    const auto result = db.exec(sql::feed, {optional_int(page.after_micros), optional_int(page.after_id),
                                            std::to_string(page.limit)})
                            .scalar();
    return success_raw(result.value());
}

HttpResponse platforms(const Context& context, const HttpRequest& request, Db& db) {
    authorize(request, db, scope_read);
    ensure_configured(context, db);
    return success_raw(db.exec(sql::platforms_list, {}).scalar().value());
}

HttpResponse customer_lookup(const Context& context, const HttpRequest& request, Db& db) {
    authorize(request, db, scope_read);
    const Selector selector = read_selector(request);
    ensure_configured(context, db);
    const json outcome =
        parse_db_json(db.exec(sql::customer_lookup, {selector.kind, selector.value, selector.platform}).scalar());
    const std::string status = json_string(outcome, "outcome");
    if (status == "found") return success(outcome["customer"]);
    if (status == "unknown_platform")
        throw BusinessError(422, "unknown_platform",
                            "Platform '" + selector.platform.value_or("") + "' is not in the platform registry",
                            json{{"platform", selector.platform.value_or("")}});
    if (status == "invalid_value")
        throw BusinessError(422, "invalid_request", selector.kind + ": is not a valid " + selector.kind,
                            json{{"selector", selector.kind}});
    throw BusinessError(404, "not_found", "No customer has this " + selector.kind,
                        json{{"selector", selector.kind}});
}

HttpResponse customer_get(const Context& context, const HttpRequest& request, Db& db) {
    authorize(request, db, scope_read);
    const std::string customer_id = read_customer_id(request);
    ensure_configured(context, db);
    return success_raw(required_text(db.exec(sql::customer_get, {customer_id}).scalar()));
}

HttpResponse customer_events(const Context& context, const HttpRequest& request, Db& db) {
    authorize(request, db, scope_read);
    const std::string customer_id = read_customer_id(request);
    const Page page = read_page(request);
    ensure_configured(context, db);
    const auto result = db.exec(sql::customer_events, {customer_id, optional_int(page.after_micros),
                                                       optional_int(page.after_id), std::to_string(page.limit)})
                            .scalar();
    return success_raw(required_text(result));
}

HttpResponse customer_consents(const Context& context, const HttpRequest& request, Db& db) {
    authorize(request, db, scope_read);
    const std::string customer_id = read_customer_id(request);
    ensure_configured(context, db);
    return success_raw(required_text(db.exec(sql::customer_consents, {customer_id}).scalar()));
}

HttpResponse customer_traits(const Context& context, const HttpRequest& request, Db& db) {
    authorize(request, db, scope_read);
    const std::string customer_id = read_customer_id(request);
    ensure_configured(context, db);
    return success_raw(required_text(db.exec(sql::customer_traits, {customer_id}).scalar()));
}

HttpResponse customer_insights(const Context& context, const HttpRequest& request, Db& db) {
    authorize(request, db, scope_read);
    const std::string customer_id = read_customer_id(request);
    const InsightsQuery query = read_insights_query(request);
    ensure_configured(context, db);
    return success_raw(required_text(db.exec(sql::customer_insights, {customer_id, query.from, query.to}).scalar()));
}

HttpResponse parity(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(request, db, scope_read);
    const ParityQuery query = read_parity_query(request, caller.source);
    ensure_configured(context, db);
    const Param type = query.type ? Param(*query.type) : Param();
    return success_raw(
        db.exec(sql::parity, {query.source, query.from, query.to, query.granularity, type}).scalar().value());
}

HttpResponse loyalty_get(const Context& context, const HttpRequest& request, Db& db) {
    authorize(request, db, scope_read);
    const std::string member_id = read_member_id(request);
    ensure_configured(context, db);
    const auto result = db.exec(sql::loyalty_get, {member_id}).scalar();
    if (!result) throw BusinessError(404, "not_found", "Loyalty member " + member_id + " is not mapped");
    return success_raw(*result);
}

HttpResponse loyalty_map(const Context& context, const HttpRequest& request, Db& db) {
    authorize(request, db, scope_ingest);
    const std::string member_id = read_member_id(request);
    const std::string customer_id = read_loyalty_body(request.body);
    ensure_configured(context, db);
    const json outcome = parse_db_json(db.exec(sql::loyalty_map, {member_id, customer_id}).scalar());
    const std::string status = json_string(outcome, "outcome");
    if (status == "created") return success(outcome["mapping"], 201, "Loyalty member mapped");
    if (status == "unchanged") return success(outcome["mapping"], 200, "Loyalty member already mapped to this customer");
    if (status == "customer_not_found") throw BusinessError(404, "not_found", "Customer not found");
    const json& mapping = outcome["mapping"];
    throw BusinessError(409, "member_taken",
                        "Loyalty member " + member_id + " is already mapped to another customer",
                        json{{"memberId", member_id}, {"customerPublicId", json_string(mapping, "customerId")}});
}

HttpResponse health(const Context&, const HttpRequest&, Db& db) {
    try {
        db.exec(sql::ping, {});
        return success(json{{"status", "UP"}, {"database", "UP"}});
    } catch (const DbUnavailable&) {
        throw BusinessError(503, "service_unavailable", "The database is unavailable",
                            json{{"status", "DOWN"}, {"database", "DOWN"}});
    }
}

}  // namespace corebank::httpd::events
