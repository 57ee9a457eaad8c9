// approvals_handlers.cpp: /v1/approvals, the maker-checker queue
// (00-decisions.md). The database refuses a checker who is the maker.
#include "banking/handlers.hpp"
#include "banking/ledger/approvals_validation.hpp"
#include "banking/ledger/handlers.hpp"
#include "banking/ledger/statements.hpp"
#include "banking/parameters.hpp"
#include "query_params.hpp"

namespace corebank::httpd::core_banking {

HttpResponse approvals_list(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "approvals.list");
    const auto status = query_enum(request, "status", {"PENDING", "APPROVED", "REJECTED", "LAPSED"});
    const auto [page, size] = query_page(request);
    return pass_through(db.exec(sql::approvals_list, {status ? Param(*status) : Param(), std::to_string(page),
                                                      std::to_string(size)})
                            .scalar());
}

HttpResponse approval_get(const Context& context, const HttpRequest& request, Db& db) {
    return read_by_id(context, request, db, "approvals.get", sql::approval_get);
}

HttpResponse approval_approve(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "approvals.approve");
    const auto comment = parse_approval_comment(request.body);
    return pass_through(db.exec(sql::approval_approve, {path_uuid(request, "id"), *caller.actor_id,
                                                        comment ? Param(*comment) : Param()})
                            .scalar());
}

HttpResponse approval_reject(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "approvals.reject");
    const std::string reason = parse_rejection_reason(request.body);
    return pass_through(db.exec(sql::approval_reject, {path_uuid(request, "id"), *caller.actor_id, reason}).scalar());
}

}  // namespace corebank::httpd::core_banking
