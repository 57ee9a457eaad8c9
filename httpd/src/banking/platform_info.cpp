// platform_info.cpp: content of the public platform endpoints. The bank list
// is reference data an institution confirms during implementation (spec:
// "pre-configured with SWIFT/BIC reference codes"): it lives in the database,
// stated by migrations/0003_banks.sql.
#include "banking/platform_info.hpp"
#include "banking/statements.hpp"

namespace corebank::httpd::core_banking {

using nlohmann::json;

// The services this process runs (server.cpp starts all four) on the ports of
// its configuration. Core banking is partial: 01-core-banking.md names areas
// (payments, lending, treasury, compliance, ...) that later issues build.
json platform_overview(const Config& config) {
    return {
        {"name", "corebank"},
        {"description", "Open-source core banking for microfinance institutions, savings cooperatives, commercial "
                        "banks and fintechs"},
        {"version", "1.0.0"},
        {"apiVersion", "1.0.0"},
        {"currencies", {"USD", "ZWG"}},
        {"homeMarket", "ZW"},
        {"services",
         {{{"name", "core-banking"}, {"basePath", "/v1"}, {"port", config.core_port}, {"status", "partial"}},
          {{"name", "identity"}, {"port", config.identity_port}, {"status", "available"}},
          {{"name", "verification"}, {"port", config.verify_port}, {"status", "available"}},
          {{"name", "events"}, {"port", config.events_port}, {"status", "available"}}}},
        {"documentation", "/openapi.json"},
    };
}

namespace {

// What the configured provider of external KYC checks does. Only STUB is
// built; the database refuses checks in any other mode (CB422), so that is
// what the statement says of them.
json kyc_statement(const std::string& provider_mode) {
    const bool stub = provider_mode == "STUB";
    return {{"externalProviderMode", provider_mode},
            {"note", stub ? "the offline stub contacts nothing and labels results source=STUB"
                          : "no provider of this mode is built: external checks are refused (422) until one is"}};
}

}  // namespace

// Only controls that exist: regulatory submission and transaction monitoring
// are in the specification but not built, so they are not listed.
json platform_compliance(const Config& config) {
    return {
        {"ledger",
         {{"doubleEntry", true},
          {"balancedPerCurrency", "checked at commit inside the database"},
          {"immutable", "posted entries cannot be updated or deleted; corrections are reversal transactions"},
          {"periodLocks", "no posting with a value date inside a closed accounting period"},
          {"tamperEvidence", "SHA-256 hash chains over posted transactions, verified by corebank.ledger_verify_chain()"}}},
        {"makerChecker",
         {{"enforcedIn", "database"},
          {"makerMayApprove", false},
          {"defaultLapseHours", 72}}},
        {"kyc", kyc_statement(config.external_kyc_provider_mode)},
        {"dataProtection",
         {{"passwords", "argon2id"},
          {"apiKeys", "stored as SHA-256 hashes only"},
          {"tokens", "RS256; signing keys generated and kept inside the database"}}},
    };
}

const json& platform_architecture() {
    static const json document = {
        {"truth", "PostgreSQL 15 with the corebank extension (C++ and PL/pgSQL): every ledger invariant, "
                  "maker-checker rule, idempotency and dedupe is enforced by the extension's triggers and "
                  "functions, for the HTTP tier and psql alike"},
        {"tier", "corebankd: stateless C++ HTTP tier (Pistache); any number of processes serve one database"},
        {"ports", {{"core", 8080}, {"identity", 8081}, {"verification", 8082}, {"events", 8083}}},
        {"scaleOut", {"many tier processes behind a load balancer", "PgBouncer", "streaming replicas for reports",
                      "sharding by customer (Citus) planned"}},
        {"money", "integer minor units (cents) in the ledger; decimal strings on the API"},
    };
    return document;
}

const json& platform_faq() {
    static const json document = json::array({
        {{"question", "How do I authenticate?"},
         {"answer", "Send X-API-Key on every non-public endpoint. Operations that record a person (maker, checker, "
                    "operator) also need a staff access token from the identity service: Authorization: Bearer."}},
        {{"question", "Why did my journal not post?"},
         {"answer", "A manual journal is parked until a different staff member approves it at /v1/approvals; then "
                    "POST /v1/transactions/{id}/post posts it."}},
        {{"question", "How are mistakes corrected?"},
         {"answer", "Posted entries are immutable. Request a reversal (POST /v1/transactions/{id}/reverse); once "
                    "approved it posts mirror entries that reference the original."}},
        {{"question", "How is money represented?"},
         {"answer", "As integer minor units (amountMinor) and exact decimal strings (amount); never as floating point."}},
        {{"question", "Which date is today?"},
         {"answer", "Ask GET /v1/platform/config: the engine's today in the institution's business time zone."}},
    });
    return document;
}

// The banks are the institution's data (migrations/0003_banks.sql), read
// through corebank.core_platform_banks(). The database's jsonb is parsed and
// written again so that the body keeps the compact form of the other
// platform documents.
HttpResponse platform_banks(const Context&, const HttpRequest&, Db& db) {
    const std::optional<std::string> banks = db.exec(sql::platform_banks, {}).scalar();
    return json_response(200, json::parse(banks.value_or("[]")));
}

}  // namespace corebank::httpd::core_banking
