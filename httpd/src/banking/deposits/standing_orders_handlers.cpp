// standing_orders_handlers.cpp: the spec's standing-order endpoints
// (01-core-banking.md): list by account, create, pause, resume, cancel and
// execute for a date. Executing twice for one date never pays twice (the
// database's unique execution key).
#include "api_error.hpp"
#include "banking/deposits/handlers.hpp"
#include "banking/deposits/standing_orders_validation.hpp"
#include "banking/deposits/statements.hpp"
#include "banking/handlers.hpp"
#include "banking/parameters.hpp"
#include "json_body.hpp"
#include "query_params.hpp"

namespace corebank::httpd::core_banking {

HttpResponse standing_orders_list(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "standing_orders.list");
    const auto account = query_uuid(request, "accountId");
    if (!account) throw bad_request("accountId: is required (a UUID)");
    return pass_through(db.exec(sql::standing_orders_list, {*account}).scalar());
}

HttpResponse standing_orders_create(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "standing_orders.create");
    const auto order = parse_standing_order_create(request.body);
    return pass_through(db.exec(sql::standing_orders_create, {order.dump(), *caller.actor_id}).scalar());
}

HttpResponse standing_order_get(const Context& context, const HttpRequest& request, Db& db) {
    return read_by_id(context, request, db, "standing_orders.get", sql::standing_orders_get);
}

HttpResponse standing_order_pause(const Context& context, const HttpRequest& request, Db& db) {
    return act_on_id(context, request, db, "standing_orders.pause", sql::standing_orders_pause);
}

HttpResponse standing_order_resume(const Context& context, const HttpRequest& request, Db& db) {
    return act_on_id(context, request, db, "standing_orders.resume", sql::standing_orders_resume);
}

HttpResponse standing_order_cancel(const Context& context, const HttpRequest& request, Db& db) {
    return act_on_id(context, request, db, "standing_orders.cancel", sql::standing_orders_cancel);
}

// A job: records the staff person when a token is sent, else the system operator.
HttpResponse standing_orders_execute(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "standing_orders.execute");
    const std::string date = query_required_date(request, "date");
    expect_no_body(request.body);
    return pass_through(
        db.exec(sql::standing_orders_execute, {date, caller.actor_id ? Param(*caller.actor_id) : Param()}).scalar());
}

}  // namespace corebank::httpd::core_banking
