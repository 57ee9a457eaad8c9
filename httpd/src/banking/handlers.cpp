// handlers.cpp: the response every core-banking handler ends with, and the
// read, change and action shapes most resources share.
#include "banking/handlers.hpp"

#include "json_body.hpp"
#include "query_params.hpp"

namespace corebank::httpd::core_banking {

HttpResponse pass_through(const std::optional<std::string>& json_text, int status) {
    HttpResponse response;
    response.status = status;
    response.body = json_text.value_or("null");
    return response;
}

HttpResponse read_by_id(const Context& context, const HttpRequest& request, Db& db, const std::string& operation,
                        const Statement& statement) {
    authorize(context, request, db, operation);
    return pass_through(db.exec(statement, {path_uuid(request, "id")}).scalar());
}

HttpResponse change_by_id(const Context& context, const HttpRequest& request, Db& db, const std::string& operation,
                          const Statement& statement, nlohmann::json (*parse_body)(const std::string&)) {
    const Caller caller = authorize(context, request, db, operation);
    const std::string id = path_uuid(request, "id");
    const auto change = parse_body(request.body);
    return pass_through(db.exec(statement, {id, change.dump(), *caller.actor_id}).scalar());
}

HttpResponse act_on_id(const Context& context, const HttpRequest& request, Db& db, const std::string& operation,
                       const Statement& statement) {
    const Caller caller = authorize(context, request, db, operation);
    const std::string id = path_uuid(request, "id");
    expect_no_body(request.body);
    return pass_through(db.exec(statement, {id, *caller.actor_id}).scalar());
}

}  // namespace corebank::httpd::core_banking
