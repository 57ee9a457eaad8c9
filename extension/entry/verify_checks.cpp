// verify_checks.cpp: single checks (docs/verification.md, "Single checks"):
// liveness, document or face match on images the caller captured in its
// own UI, scored in the tier by the hosted flow's provider.
//
//   corebank.verify_check_create   validates the provider's result exactly as
//       a session's (parse_check_results, for a flow of this one check),
//       refuses a biometric check without granted consent, and stores the
//       check (append-only) and its response under the Idempotency-Key
//       rules of the session writes: the same key and request replay the
//       first answer, another request under the key is 409, a refused
//       request stores nothing.
// nlohmann first: PostgreSQL's port.h redefines snprintf, which it uses.
#include <nlohmann/json.hpp>

#include "core/crypto.hpp"
#include "core/errors.hpp"
#include "entry/entry.hpp"
#include "pg/args.hpp"
#include "pg/spi.hpp"
#include "pg/values.hpp"
#include "pg/verify_args.hpp"
#include "pg/verify_input.hpp"
#include "pg/verify_rules.hpp"
#include "pg/verify_store.hpp"

namespace {

using namespace corebank;
using corebank::pg::Uuid;
namespace args = corebank::pg::args;
namespace spi = corebank::pg::spi;
namespace store = corebank::pg::verify_store;
using corebank::pg::verify_args::require_hash;
using corebank::pg::verify_args::require_idempotency_key;

constexpr std::size_t images_json_bytes_max = 2048;

constexpr const char insert_check_sql[] =
    "INSERT INTO corebank.verify_checks (id, api_key_id, type, status, result, provider, reference, consent, images) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";

[[noreturn]] void invalid(const std::string& message) { throw core::CoreError(core::sqlstate_validation, message); }

// The idempotency operation of each check type (a static string: the key keeps the pointer).
const char* operation_of(const std::string& type) {
    if (type == "liveness") return "check.liveness";
    if (type == "document") return "check.document";
    return "check.facematch";
}

// [{kind, format, width, height, bytes, sha256}], one per image the check
// reads: what the tier learnt from each image, never the image.
std::string checked_images(const std::string& json_text, const verify::Flow& flow) {
    if (json_text.size() > images_json_bytes_max) invalid("images: at most 2048 bytes");
    const nlohmann::json images = nlohmann::json::parse(json_text, nullptr, false);
    if (!images.is_array()) invalid("images: must be an array");
    std::vector<std::string> kinds;
    for (const auto& image : images) {
        if (!image.is_object() || !image.contains("kind") || !image["kind"].is_string()) {
            invalid("images: each must be an object with a kind");
        }
        kinds.push_back(image["kind"].get<std::string>());
    }
    std::vector<std::string> wanted;
    if (verify::needs_selfie(flow)) wanted.emplace_back("selfie");
    if (verify::needs_document(flow)) wanted.emplace_back("document");
    if (kinds != wanted) invalid("images: must describe the images the check reads, selfie before document");
    return images.dump();
}

}  // namespace

/* SQL function: corebank.verify_check_create(api_key_id uuid, idempotency_key text, request_hash bytea, check_id uuid, type text, reference text, images jsonb, provider text, results jsonb, consent_granted bool, consent_version text, consent_text_sha256 bytea, consent_ip text, consent_user_agent text) returns jsonb */
COREBANK_FUNCTION(verify_check_create) {
    const Uuid api_key_id = args::require(args::uuid(fcinfo, 0), "api_key_id");
    const std::string idempotency_key = require_idempotency_key(fcinfo, 1);
    const std::string request_hash = require_hash(fcinfo, 2, "request_hash");
    const Uuid check_id = args::require(args::uuid(fcinfo, 3), "check_id");
    const std::string type = args::require(args::text(fcinfo, 4), "type");
    const auto flow = verify::parse_flow(type);
    if (!flow || verify::check_types(*flow).size() != 1) invalid("type: must be liveness, document or facematch");
    const std::optional<std::string> reference = args::blank_to_null(args::text(fcinfo, 5));
    args::check_length(reference, "reference", verify::reference_length_max);
    const std::string images = checked_images(args::require(args::jsonb_text(fcinfo, 6), "images"), *flow);
    const std::string provider = args::require(args::text(fcinfo, 7), "provider");
    // The hosted flow's rules for a provider's results, for a flow of this one check.
    const verify::CheckResults results =
        verify::parse_check_results(args::require(args::jsonb_text(fcinfo, 8), "results"), *flow, provider);
    // Consent before biometrics, as in a session: a face is processed only
    // with the user's consent; a document check needs none (and keeps any given).
    std::optional<std::string> consent;
    if (verify::needs_consent(*flow) || !PG_ARGISNULL(9)) {
        const pg::verify_args::ConsentRequest given =
            PG_ARGISNULL(9) ? pg::verify_args::ConsentRequest{} : pg::verify_args::read_consent(fcinfo, 9);
        if (!given.granted) {
            throw core::CoreError(core::sqlstate_unprocessable,
                                  "consent: the user's consent must be granted before a biometric check");
        }
        nlohmann::json record{{"granted", true}, {"version", given.version}, {"channel", "api"}};
        record["textSha256"] = given.text_sha256 ? nlohmann::json(core::hex_encode(*given.text_sha256)) : nlohmann::json();
        record["ip"] = given.ip ? nlohmann::json(*given.ip) : nlohmann::json();
        record["userAgent"] = given.user_agent ? nlohmann::json(*given.user_agent) : nlohmann::json();
        consent = record.dump();
    }
    const nlohmann::json result = nlohmann::json::parse(results.checks_json).at(0);
    const store::IdempotencyKey key{api_key_id, idempotency_key, operation_of(type), std::nullopt, request_hash};

    spi::connect();
    if (!store::claim(key)) PG_RETURN_DATUM(store::finish_with_replay(key));
    spi::execute(insert_check_sql,
                 {spi::Arg::uuid(check_id), spi::Arg::uuid(api_key_id), spi::Arg::text(type),
                  spi::Arg::text(verify::check_status_name(results.outcomes.at(0).status)), spi::Arg::jsonb(result.dump()),
                  spi::Arg::text(provider), spi::Arg::text(reference), spi::Arg::jsonb(consent), spi::Arg::jsonb(images)});
    store::store_response(key, 201, store::ResponseShape::check, check_id, std::nullopt);
    const Datum stored = store::stored_response_for_return(key, false);
    spi::finish();
    PG_RETURN_DATUM(stored);
}
