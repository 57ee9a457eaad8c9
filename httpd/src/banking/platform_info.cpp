// platform_info.cpp: content of the public platform endpoints. The bank list
// is reference data an institution confirms during implementation (spec:
// "pre-configured with SWIFT/BIC reference codes").
#include "banking/platform_info.hpp"

namespace corebank::httpd::core_banking {

using nlohmann::json;

const json& platform_overview() {
    static const json document = {
        {"name", "corebank"},
        {"description", "Open-source core banking for microfinance institutions, savings cooperatives, commercial "
                        "banks and fintechs"},
        {"version", "1.0.0"},
        {"apiVersion", "1.0.0"},
        {"currencies", {"USD", "ZWG"}},
        {"homeMarket", "ZW"},
        {"services",
         {{{"name", "core-banking"}, {"basePath", "/v1"}, {"status", "partial"}},
          {{"name", "identity"}, {"status", "available"}},
          {{"name", "verification"}, {"status", "not built"}},
          {{"name", "events"}, {"status", "not built"}}}},
        {"documentation", "/openapi.json"},
    };
    return document;
}

const json& platform_compliance() {
    static const json document = {
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
        {"regulatorySubmission", "simulated: artefacts are prepared, released by a second person, watermarked and "
                                 "recorded; nothing is transmitted to any regulator"},
        {"transactionMonitoring", "advisory mode; never blocks a posting"},
        {"kyc", {{"externalProviderMode", "STUB"}, {"note", "the default offline stub contacts nothing and labels results source=STUB"}}},
        {"dataProtection",
         {{"passwords", "argon2id"},
          {"apiKeys", "stored as SHA-256 hashes only"},
          {"tokens", "RS256; signing keys generated and kept inside the database"}}},
    };
    return document;
}

const json& platform_architecture() {
    static const json document = {
        {"truth", "PostgreSQL 15 with the corebank C++ extension: every ledger invariant, maker-checker rule, "
                  "idempotency and dedupe is enforced by the extension's triggers and functions"},
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

const json& platform_banks() {
    static const json document = json::array({
        {{"code", "AFC"}, {"name", "AFC Commercial Bank"}, {"swiftBic", "AGRZZWHA"}},
        {{"code", "BANCABC"}, {"name", "BancABC Zimbabwe"}, {"swiftBic", "FMBZZWHX"}},
        {{"code", "CABS"}, {"name", "CABS"}, {"swiftBic", "CABSZWHA"}},
        {{"code", "CBZ"}, {"name", "CBZ Bank"}, {"swiftBic", "COBZZWHA"}},
        {{"code", "ECOBANK"}, {"name", "Ecobank Zimbabwe"}, {"swiftBic", "ECOCZWHX"}},
        {{"code", "FBC"}, {"name", "FBC Bank"}, {"swiftBic", "FBCPZWHA"}},
        {{"code", "FCB"}, {"name", "First Capital Bank"}, {"swiftBic", "BARCZWHX"}},
        {{"code", "METBANK"}, {"name", "Metbank"}, {"swiftBic", "METBZWHA"}},
        {{"code", "NEDBANK"}, {"name", "Nedbank Zimbabwe"}, {"swiftBic", "MBCAZWHX"}},
        {{"code", "NMB"}, {"name", "NMB Bank"}, {"swiftBic", "NMBLZWHA"}},
        {{"code", "POSB"}, {"name", "People's Own Savings Bank"}, {"swiftBic", "POSBZWHA"}},
        {{"code", "STANBIC"}, {"name", "Stanbic Bank Zimbabwe"}, {"swiftBic", "SBICZWHX"}},
        {{"code", "SCB"}, {"name", "Standard Chartered Bank Zimbabwe"}, {"swiftBic", "SCBLZWHX"}},
        {{"code", "STEWARD"}, {"name", "Steward Bank"}, {"swiftBic", "STEWZWHA"}},
        {{"code", "ZB"}, {"name", "ZB Bank"}, {"swiftBic", "ZBCOZWHA"}},
    });
    return document;
}

}  // namespace corebank::httpd::core_banking
