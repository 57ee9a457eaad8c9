// identities_handlers.cpp: /v1/staff/identities. An identity is created
// without a password: the tier draws a set-password token, the database
// stores its SHA-256 as a reset token (72 hours) and, in the same
// statement, the outbox gets the mail that carries the link, sealed under
// the data key as the reset mail is; the member follows the link to the
// identity service's reset form. A change of roles or status drops this
// process's cached answers for that member at once (the database notifies
// the other processes), so a disabled member's next request is refused.
#include "api_error.hpp"
#include "banking/hot_path.hpp"
#include "banking/staff/identities_handlers.hpp"
#include "banking/staff/identities_statements.hpp"
#include "banking/staff/identities_validation.hpp"
#include "core/crypto.hpp"
#include "json_body.hpp"
#include "query_params.hpp"

namespace corebank::httpd::core_banking {

namespace {

constexpr int set_password_link_hours = 72;  // core_staff_identity_create's

// The token in the fragment, as the reset mail has it (never sent to a server).
std::string set_password_link(const std::string& base, const std::string& token) {
    return base + (base.find('#') == std::string::npos ? "#" : "&") + "token=" + token;
}

std::string set_password_mail(const std::string& app_name, const std::string& link) {
    return "Hello,\r\n\r\nA staff account has been created for you on " + app_name +
           ". Open this link within " + std::to_string(set_password_link_hours) +
           " hours to choose your password:\r\n\r\n" + link +
           "\r\n\r\nThe link works once. If you did not expect this, tell your administrator.\r\n";
}

void forget_cached_member(const Context& context, const std::string& user_id) {
    if (context.hot_path) context.hot_path->apply_event("user:" + user_id);
}

std::string path_uuid(const HttpRequest& request) {
    const auto it = request.path_params.find("id");
    if (it == request.path_params.end() || !is_uuid_text(it->second)) throw httpd::not_found("Staff identity not found");
    return it->second;
}

}  // namespace

HttpResponse staff_identities_list(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "staff.identities.list");
    return pass_through(db.exec(sql::staff_identities_list, {}).scalar());
}

HttpResponse staff_identity_create(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "staff.identities.create");
    const auto identity = parse_staff_identity_create(request.body);
    const std::string recipient = identity["email"].get<std::string>();
    const std::string token = core::random_token();
    const std::string body = set_password_mail(context.config.app_name,
                                               set_password_link(context.config.reset_link_base, token));
    const std::string sealed = core::aead_seal(context.data_key, body, recipient);
    auto created = db.exec(sql::staff_identity_create,
                           {identity.dump(), *caller.actor_id, bytea_param(core::sha256(token)), recipient,
                            "Set your " + context.config.app_name + " password", bytea_param(sealed)})
                       .scalar();
    context.wake_mail_sender();
    return pass_through(created);
}

HttpResponse staff_identity_update(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "staff.identities.update");
    const auto it = request.path_params.find("username");
    if (it == request.path_params.end() || !is_staff_username(it->second))
        throw httpd::not_found("Staff identity not found");
    const auto change = parse_staff_identity_update(request.body);
    auto updated = db.exec(sql::staff_identity_update, {it->second, change.dump(), *caller.actor_id}).scalar();
    const auto view = nlohmann::json::parse(updated.value_or("{}"), nullptr, false);
    if (view.is_object() && view.contains("id")) forget_cached_member(context, view["id"].get<std::string>());
    return pass_through(updated);
}

HttpResponse staff_branch_get(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "staff.branch.get");
    const std::string id = path_uuid(request);
    return pass_through(db.exec(sql::staff_branch_get, {id}).scalar());
}

HttpResponse staff_branch_update(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "staff.branch.update");
    const std::string id = path_uuid(request);
    const auto change = parse_staff_branch_update(request.body);
    auto updated = db.exec(sql::staff_branch_set, {id, change.dump(), *caller.actor_id}).scalar();
    forget_cached_member(context, id);
    return pass_through(updated);
}

}  // namespace corebank::httpd::core_banking
