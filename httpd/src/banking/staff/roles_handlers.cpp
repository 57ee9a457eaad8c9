// roles_handlers.cpp: /v1/staff/permissions and /v1/staff/roles. A role
// changed here acts on the next request of every staff member holding it:
// the database notifies every tier process to drop the staff answers it
// cached, and this process drops its own before answering, so the caller's
// next request is judged by the new permissions.
#include "api_error.hpp"
#include "banking/hot_path.hpp"
#include "banking/staff/handlers.hpp"
#include "banking/staff/roles_validation.hpp"
#include "banking/staff/statements.hpp"
#include "query_params.hpp"

namespace corebank::httpd::core_banking {

namespace {

void forget_cached_roles(const Context& context) {
    if (context.hot_path) context.hot_path->apply_event("staff_roles");
}

}  // namespace

HttpResponse staff_permissions_list(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "staff.permissions.list");
    return pass_through(db.exec(sql::staff_permissions_list, {}).scalar());
}

HttpResponse staff_roles_list(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "staff.roles.list");
    return pass_through(db.exec(sql::staff_roles_list, {}).scalar());
}

HttpResponse staff_role_create(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "staff.roles.create");
    const auto role = parse_staff_role_create(request.body);
    auto created = db.exec(sql::staff_role_create, {role.dump(), *caller.actor_id}).scalar();
    forget_cached_roles(context);
    return pass_through(created);
}

HttpResponse staff_role_update(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "staff.roles.update");
    const auto it = request.path_params.find("roleKey");
    if (it == request.path_params.end() || !is_staff_role_key(it->second))
        throw httpd::not_found("Staff role not found");
    const auto change = parse_staff_role_update(request.body);
    auto updated = db.exec(sql::staff_role_update, {it->second, change.dump(), *caller.actor_id}).scalar();
    forget_cached_roles(context);
    return pass_through(updated);
}

}  // namespace corebank::httpd::core_banking
