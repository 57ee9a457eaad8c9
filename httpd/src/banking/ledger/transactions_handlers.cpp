// transactions_handlers.cpp: GET/POST /v1/transactions and the journal's
// lifecycle (post, abandon, reverse). Rules live in the extension; the tier
// bounds and shapes the input.
#include "api_error.hpp"
#include "banking/handlers.hpp"
#include "banking/ledger/handlers.hpp"
#include "banking/ledger/statements.hpp"
#include "banking/ledger/transactions_validation.hpp"
#include "banking/parameters.hpp"
#include "json_body.hpp"
#include "query_params.hpp"

namespace corebank::httpd::core_banking {

namespace {

inline constexpr std::size_t reversal_reason_max = 1000;

}  // namespace

HttpResponse transactions_search(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "transactions.search");
    nlohmann::json filter = nlohmann::json::object();
    if (auto v = query_date(request, "from")) filter["from"] = *v;
    if (auto v = query_date(request, "to")) filter["to"] = *v;
    if (auto v = query_enum(request, "type", transaction_types())) filter["type"] = *v;
    if (auto v = query_enum(request, "status", transaction_statuses())) filter["status"] = *v;
    if (auto v = query_enum(request, "state", transaction_statuses())) filter["state"] = *v;
    if (auto v = query_text(request, "reference", 64)) filter["reference"] = *v;
    if (auto v = query_text(request, "glAccountCode", 20)) filter["glAccountCode"] = *v;
    const PageRequest paging = query_page(request);
    filter["page"] = paging.page;
    filter["size"] = paging.size;
    if (filter.contains("from") && filter.contains("to") && filter["from"] > filter["to"])
        throw bad_request("from: must not be after to");
    // The read replica when read_database_url is set (docs/scale-out.md); authorize stayed on the primary.
    return pass_through(db.exec_read(sql::transaction_search, {filter.dump()}).scalar());
}

HttpResponse transactions_capture(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "transactions.capture");
    nlohmann::json journal = parse_manual_journal(request.body);
    if (const auto key = request.header("idempotency-key")) {
        if (key->empty() || key->size() > 128) throw bad_request("Idempotency-Key: must be 1 to 128 characters");
        if (journal.contains("idempotencyKey") && journal["idempotencyKey"] != *key)
            throw bad_request("Idempotency-Key header and idempotencyKey field differ");
        journal["idempotencyKey"] = *key;
    }
    return pass_through(db.exec(sql::transaction_capture, {journal.dump(), *caller.actor_id}).scalar());
}

HttpResponse transaction_get(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "transactions.get");
    // The read replica when read_database_url is set: a just-posted transaction may 404 there for the lag.
    return pass_through(db.exec_read(sql::transaction_get, {path_uuid(request, "id")}).scalar());
}

HttpResponse transaction_post(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "transactions.post");
    expect_no_body(request.body);
    return pass_through(db.exec(sql::transaction_post, {path_uuid(request, "id"), *caller.actor_id}).scalar());
}

HttpResponse transaction_abandon(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "transactions.abandon");
    expect_no_body(request.body);
    return pass_through(db.exec(sql::transaction_abandon, {path_uuid(request, "id"), *caller.actor_id}).scalar());
}

HttpResponse transaction_reverse(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "transactions.reverse");
    // 01-core-banking.md: reason is a query parameter; reversedBy is accepted
    // and ignored in favour of the token (00-decisions.md).
    query_uuid(request, "reversedBy");
    const auto reason = query_text(request, "reason", 4 * reversal_reason_max);
    if (reason && utf8_length(*reason) > reversal_reason_max) throw bad_request("reason: must be at most 1000 characters");
    expect_no_body(request.body);
    return pass_through(
        db.exec(sql::transaction_reverse, {path_uuid(request, "id"), reason ? Param(*reason) : Param(), *caller.actor_id})
            .scalar());
}

}  // namespace corebank::httpd::core_banking
