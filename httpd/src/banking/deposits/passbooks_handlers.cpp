// passbooks_handlers.cpp: passbooks (01-core-banking.md, rule 1): issue,
// reprint on loss, unprinted lines, print-confirm. A book holds no money; its
// lines are the account's ledger entries (docs/design/deposits.md, Passbooks).
#include "api_error.hpp"
#include "banking/deposits/handlers.hpp"
#include "banking/deposits/passbooks_validation.hpp"
#include "banking/deposits/statements.hpp"
#include "banking/handlers.hpp"
#include "json_body.hpp"
#include "query_params.hpp"

namespace corebank::httpd::core_banking {

HttpResponse passbook_issue(const Context& context, const HttpRequest& request, Db& db) {
    return act_on_id(context, request, db, "passbooks.issue", sql::passbook_issue);
}

HttpResponse passbooks_list(const Context& context, const HttpRequest& request, Db& db) {
    return read_by_id(context, request, db, "passbooks.list", sql::passbook_list);
}

HttpResponse passbook_get(const Context& context, const HttpRequest& request, Db& db) {
    return read_by_id(context, request, db, "passbooks.get", sql::passbook_get);
}

HttpResponse passbook_reprint(const Context& context, const HttpRequest& request, Db& db) {
    return change_by_id(context, request, db, "passbooks.reprint", sql::passbook_reprint, parse_passbook_reprint);
}

HttpResponse passbook_unprinted(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "passbooks.unprinted");
    const std::string id = path_uuid(request, "id");
    const auto limit = query_int(request, "limit", passbook_lines_default, 1, passbook_lines_max);
    return pass_through(db.exec(sql::passbook_unprinted, {id, std::to_string(limit)}).scalar());
}

HttpResponse passbook_print_confirm(const Context& context, const HttpRequest& request, Db& db) {
    return change_by_id(context, request, db, "passbooks.print_confirm", sql::passbook_print_confirm, parse_print_confirm);
}

}  // namespace corebank::httpd::core_banking
