// customers_handlers.cpp: customers, the CIF (profile, interactions, cases,
// profitability), beneficial owners, beneficiaries and KYC
// (docs/design/deposits.md). Each handler: authorize, validate, one call to
// one extension function, the database's JSON back as it is.
#include "api_error.hpp"
#include "banking/deposits/customer_profile_validation.hpp"
#include "banking/deposits/customers_validation.hpp"
#include "banking/deposits/handlers.hpp"
#include "banking/deposits/kyc_validation.hpp"
#include "banking/deposits/statements.hpp"
#include "banking/handlers.hpp"
#include "banking/parameters.hpp"
#include "json_body.hpp"
#include "query_params.hpp"

namespace corebank::httpd::core_banking {

namespace {

Param optional(const std::optional<std::string>& value) { return value ? Param(*value) : Param(); }

}  // namespace

HttpResponse customers_create(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "customers.create");
    const auto customer = parse_customer_create(request.body);
    return pass_through(db.exec(sql::customers_create, {customer.dump(), *caller.actor_id}).scalar());
}

HttpResponse customers_list(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "customers.list");
    nlohmann::json filter = nlohmann::json::object();
    if (auto v = query_enum_ci(request, "type", {"INDIVIDUAL", "CORPORATE"})) filter["type"] = *v;
    if (auto v = query_enum_ci(request, "status", {"ACTIVE", "INACTIVE"})) filter["status"] = *v;
    if (auto v = query_enum_ci(request, "riskCategory", risk_categories())) filter["riskCategory"] = *v;
    if (auto v = query_text(request, "q", 100)) filter["q"] = *v;
    const PageRequest paging = query_page(request);
    filter["page"] = paging.page;
    filter["size"] = paging.size;
    return pass_through(db.exec(sql::customers_list, {filter.dump()}).scalar());
}

HttpResponse customer_get(const Context& context, const HttpRequest& request, Db& db) {
    return read_by_id(context, request, db, "customers.get", sql::customers_get);
}

HttpResponse customer_signing_mandate_update(const Context& context, const HttpRequest& request, Db& db) {
    return change_by_id(context, request, db, "customers.signing_mandate.update", sql::customers_signing_mandate_set, parse_signing_mandate);
}

HttpResponse customer_profile_get(const Context& context, const HttpRequest& request, Db& db) {
    return read_by_id(context, request, db, "customers.profile.get", sql::customers_profile_get);
}

HttpResponse customer_profile_update(const Context& context, const HttpRequest& request, Db& db) {
    return change_by_id(context, request, db, "customers.profile.update", sql::customers_profile_patch, parse_profile_patch);
}

HttpResponse customer_interactions_list(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "customers.interactions.list");
    const std::string id = path_uuid(request, "id");
    const auto [page, size] = query_page(request);
    return pass_through(
        db.exec(sql::customers_interactions_list, {id, std::to_string(page), std::to_string(size)}).scalar());
}

HttpResponse customer_interaction_create(const Context& context, const HttpRequest& request, Db& db) {
    return change_by_id(context, request, db, "customers.interactions.create", sql::customers_interaction_add, parse_interaction_create);
}

HttpResponse customer_cases_list(const Context& context, const HttpRequest& request, Db& db) {
    return read_by_id(context, request, db, "customers.cases.list", sql::customers_cases_list);
}

HttpResponse customer_case_open(const Context& context, const HttpRequest& request, Db& db) {
    return change_by_id(context, request, db, "customers.cases.open", sql::customers_case_open, parse_case_open);
}

HttpResponse customer_case_resolve(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "customers.cases.resolve");
    const std::string id = path_uuid(request, "id");
    const std::string case_id = path_uuid(request, "caseId");
    const auto resolution = parse_case_resolve(request.body);
    return pass_through(
        db.exec(sql::customers_case_resolve, {id, case_id, resolution.dump(), *caller.actor_id}).scalar());
}

HttpResponse customer_beneficial_owners_list(const Context& context, const HttpRequest& request, Db& db) {
    return read_by_id(context, request, db, "customers.beneficial_owners.list", sql::customers_beneficial_owners_list);
}

HttpResponse customer_beneficial_owner_add(const Context& context, const HttpRequest& request, Db& db) {
    return change_by_id(context, request, db, "customers.beneficial_owners.add", sql::customers_beneficial_owner_add, parse_beneficial_owner_add);
}

HttpResponse customer_beneficial_owner_remove(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "customers.beneficial_owners.remove");
    const std::string id = path_uuid(request, "id");
    const std::string owner_id = path_uuid(request, "ownerId");
    expect_no_body(request.body);
    return pass_through(
        db.exec(sql::customers_beneficial_owner_remove, {id, owner_id, *caller.actor_id}).scalar());
}

HttpResponse customer_beneficiaries_list(const Context& context, const HttpRequest& request, Db& db) {
    return read_by_id(context, request, db, "customers.beneficiaries.list", sql::customers_beneficiaries_list);
}

HttpResponse customer_beneficiary_add(const Context& context, const HttpRequest& request, Db& db) {
    return change_by_id(context, request, db, "customers.beneficiaries.add", sql::customers_beneficiary_add, parse_beneficiary_add);
}

HttpResponse customer_beneficiary_remove(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "customers.beneficiaries.remove");
    const std::string id = path_uuid(request, "id");
    const std::string beneficiary_id = path_uuid(request, "beneficiaryId");
    expect_no_body(request.body);
    return pass_through(
        db.exec(sql::customers_beneficiary_remove, {id, beneficiary_id, *caller.actor_id}).scalar());
}

HttpResponse customer_profitability(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "customers.profitability");
    const std::string id = path_uuid(request, "id");
    const auto [from, to] = query_statement_period(request);
    return pass_through(db.exec(sql::customers_profitability, {id, optional(from), optional(to)}).scalar());
}

// ---------------------------------------------------------------- KYC

HttpResponse customer_kyc_get(const Context& context, const HttpRequest& request, Db& db) {
    return read_by_id(context, request, db, "kyc.get", sql::customers_kyc_get);
}

HttpResponse customer_kyc_risk_update(const Context& context, const HttpRequest& request, Db& db) {
    return change_by_id(context, request, db, "kyc.risk.update", sql::customers_kyc_risk_set, parse_kyc_risk);
}

HttpResponse customer_kyc_review_record(const Context& context, const HttpRequest& request, Db& db) {
    return change_by_id(context, request, db, "kyc.reviews.record", sql::customers_kyc_review_record, parse_kyc_review);
}

HttpResponse kyc_reviews_due(const Context& context, const HttpRequest& request, Db& db) {
    authorize(context, request, db, "kyc.reviews.due");
    return pass_through(db.exec(sql::customers_kyc_reviews_due, {optional(query_date(request, "asOf"))}).scalar());
}

HttpResponse customer_kyc_document_add(const Context& context, const HttpRequest& request, Db& db) {
    return change_by_id(context, request, db, "kyc.documents.add", sql::customers_kyc_document_add, parse_kyc_document_add);
}

// Parked (kyc.document.verify): returns the ParkedChangeResponse; a second
// person decides it at /v1/approvals.
HttpResponse kyc_document_verify(const Context& context, const HttpRequest& request, Db& db) {
    return change_by_id(context, request, db, "kyc.documents.verify", sql::customers_kyc_document_verify, parse_kyc_document_verify);
}

// The provider is EXTERNAL_KYC_PROVIDER_MODE of the configuration; the
// default STUB contacts nothing and labels every result source=STUB.
HttpResponse customer_kyc_checks_run(const Context& context, const HttpRequest& request, Db& db) {
    const Caller caller = authorize(context, request, db, "kyc.checks.run");
    const std::string id = path_uuid(request, "id");
    const auto checks = parse_kyc_checks(request.body, context.config.external_kyc_provider_mode);
    return pass_through(db.exec(sql::customers_kyc_checks_run, {id, checks.dump(), *caller.actor_id}).scalar());
}

}  // namespace corebank::httpd::core_banking
