// money_handlers.cpp: deposits, withdrawals, transfers and fees (each one
// balanced posting, Idempotency-Key honoured by the database) and the
// exchange rates behind cross-currency transfers (docs/design/deposits.md).
// Concurrent transfers are posted in groups (docs/design/posting-group.md).
#include "api_error.hpp"
#include "banking/deposits/handlers.hpp"
#include "banking/deposits/money_validation.hpp"
#include "banking/deposits/statements.hpp"
#include "banking/fields.hpp"
#include "banking/handlers.hpp"
#include "banking/parameters.hpp"
#include "banking/posting_group.hpp"
#include "json_body.hpp"
#include "query_params.hpp"

namespace corebank::httpd::core_banking {

namespace {

// `group`: when not null, the request is posted through it (alone or with
// concurrent ones); its answer is the single call's either way.
HttpResponse money(const Context& context, const HttpRequest& request, Db& db, const char* operation, MoneyKind kind,
                   const Statement& statement, PostingGroup* group = nullptr) {
    const Caller caller = authorize(context, request, db, operation);
    const auto posting = parse_money(request.body, kind, request.header("idempotency-key"));
    if (group != nullptr) return pass_through(group->post(db, PostingRequest{posting.dump(), *caller.actor_id}));
    return pass_through(db.exec(statement, {posting.dump(), *caller.actor_id}).scalar());
}

}  // namespace

HttpResponse money_transfer_batch(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "money.transfer_batch");
    const std::string body = parse_transfer_batch(request.body, request.header("idempotency-key"));
    return pass_through(
        db.exec_with_timeout(sql::money_transfer_batch, {body, *caller.actor_id}, context.config.batch_statement_timeout_ms)
            .scalar());
}

HttpResponse money_deposit(const Context& context, const HttpRequest& request, Db& db) {
    return money(context, request, db, "money.deposit", MoneyKind::deposit, sql::money_deposit);
}

HttpResponse money_withdraw(const Context& context, const HttpRequest& request, Db& db) {
    return money(context, request, db, "money.withdraw", MoneyKind::withdrawal, sql::money_withdraw);
}

HttpResponse money_transfer(const Context& context, const HttpRequest& request, Db& db) {
    // Transfers alone are grouped so far (docs/design/posting-group.md).
    return money(context, request, db, "money.transfer", MoneyKind::transfer, sql::money_transfer,
                 context.transfer_group.get());
}

HttpResponse money_fee(const Context& context, const HttpRequest& request, Db& db) {
    return money(context, request, db, "money.fee", MoneyKind::fee, sql::money_fee);
}

// ---------------------------------------------------------------- exchange rates

HttpResponse exchange_rates_list(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "exchange_rates.list");
    nlohmann::json filter = nlohmann::json::object();
    if (auto v = query_date(request, "date")) filter["date"] = *v;
    if (auto v = query_enum_ci(request, "from", currencies())) filter["fromCurrency"] = *v;
    if (auto v = query_enum_ci(request, "to", currencies())) filter["toCurrency"] = *v;
    if (auto v = query_bool(request, "history")) filter["history"] = *v;
    return pass_through(db.exec(sql::fx_rates_list, {filter.dump()}).scalar());
}

HttpResponse exchange_rate_get(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "exchange_rates.get");
    const std::string from = path_currency(request, "from");
    const std::string to = path_currency(request, "to");
    if (from == to) throw bad_request("to must differ from from");
    const auto date = query_date(request, "date");
    return pass_through(db.exec(sql::fx_rates_get, {from, to, date ? Param(*date) : Param()}).scalar());
}

HttpResponse exchange_rate_set(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "exchange_rates.set");
    const auto rate = parse_fx_rate_set(request.body);
    return pass_through(db.exec(sql::fx_rates_set, {rate.dump(), *caller.actor_id}).scalar());
}

}  // namespace corebank::httpd::core_banking
