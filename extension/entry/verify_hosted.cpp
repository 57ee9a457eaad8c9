// verify_hosted.cpp: what the hosted page does, authorised by the session's
// client token (its SHA-256 arrives; the token itself never reaches the
// database).
//
//   corebank.verify_hosted_state          the page's view of the session;
//   corebank.verify_hosted_consent        the user grants or declines consent;
//   corebank.verify_hosted_capture        stores one sealed image (selfie,
//       document), refused before consent in a biometric flow;
//   corebank.verify_hosted_submit_begin   pending -> processing once consent
//       and every image the flow needs are there;
//   corebank.verify_hosted_submit_finish  processing -> completed with the
//       provider's results; the decision is derived here, not taken from the
//       tier; images purged; session.completed queued;
//   corebank.verify_hosted_submit_abort   processing -> pending when the
//       provider failed, so the user can try again.
// Writes are idempotent per session: the scope of their keys is the session.
// A submission's key stays "in progress" (no response) from begin to finish,
// so a retry meanwhile gets 409 and a retry afterwards gets the outcome.
// nlohmann first: PostgreSQL's port.h redefines snprintf, which it uses.
#include <nlohmann/json.hpp>

#include "core/crypto.hpp"
#include "core/errors.hpp"
#include "entry/entry.hpp"
#include "pg/args.hpp"
#include "pg/check.hpp"
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

/*---- statements ----*/

// Columns: 1 token hash, 2 token live.
constexpr const char token_of_session_sql[] =
    "SELECT s.client_token_hash, s.client_token_expires_at > now() FROM corebank.verify_sessions s WHERE s.id = $1";

constexpr const char capture_attempts_sql[] =
    "SELECT x.attempts FROM corebank.verify_captures x WHERE x.session_id = $1 AND x.kind = $2";

constexpr const char upsert_capture_sql[] =
    "INSERT INTO corebank.verify_captures AS x (session_id, kind, image_sealed, format, width, height, byte_count, "
    "    image_sha256) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7, $8) "
    "ON CONFLICT (session_id, kind) DO UPDATE "
    "SET image_sealed = excluded.image_sealed, format = excluded.format, width = excluded.width, "
    "    height = excluded.height, byte_count = excluded.byte_count, image_sha256 = excluded.image_sha256, "
    "    attempts = x.attempts + 1, received_at = now(), purged_at = NULL "
    "RETURNING x.attempts";

// Columns: 1 is a submission, 2 still in progress.
constexpr const char submission_key_sql[] =
    "SELECT k.operation = 'hosted.submit' AND k.session_id = $1, k.response IS NULL "
    "FROM corebank.verify_idempotency_keys k WHERE k.scope = $1 AND k.idem_key = $2 FOR UPDATE";

constexpr const char begin_result_sql[] =
    "SELECT jsonb_build_object('replayed', false, 'status', 200, 'flow', $1, 'checks', to_jsonb($2::text[]))";

[[noreturn]] void unauthorized() {
    throw core::CoreError(core::sqlstate_unauthorized, "Client token is invalid or expired");
}

[[noreturn]] void conflict(const std::string& message) { throw core::CoreError(core::sqlstate_conflict, message); }

[[noreturn]] void unprocessable(const std::string& message) {
    throw core::CoreError(core::sqlstate_unprocessable, message);
}

// Locks the session and checks the token; an unknown session answers like a
// wrong token, so the page's API does not reveal which sessions exist.
store::SessionRow authorise(const Uuid& session_id, const std::string& token_hash, bool require_live) {
    const auto session = store::lock_session(session_id);
    if (!session) unauthorized();
    store::require_client_token(*session, token_hash, require_live);
    return *session;
}

Datum answered(const store::IdempotencyKey& key, const Uuid& session_id) {
    store::store_response(key, 200, store::ResponseShape::hosted, session_id, std::nullopt);
    const Datum result = store::stored_response_for_return(key, false);
    spi::finish();
    return result;
}

bool consent_missing(const store::SessionRow& session) {
    return session.consent_required && session.consent_granted != std::optional<bool>(true);
}

/*---- capture ----*/

struct CaptureRequest {
    Uuid session_id;
    std::string token_hash;
    std::string idempotency_key;
    std::string request_hash;
    std::string kind;
    std::string image_sealed;
    std::string format;
    std::int32_t width;
    std::int32_t height;
    std::int32_t byte_count;
    std::string image_sha256;
};

CaptureRequest read_capture_request(FunctionCallInfo fcinfo) {
    CaptureRequest r;
    r.session_id = args::require(args::uuid(fcinfo, 0), "session_id");
    r.token_hash = require_hash(fcinfo, 1, "client_token_hash");
    r.idempotency_key = require_idempotency_key(fcinfo, 2);
    r.request_hash = require_hash(fcinfo, 3, "request_hash");
    r.kind = args::require(args::text(fcinfo, 4), "kind");
    if (r.kind != "selfie" && r.kind != "document") args::throw_validation("kind: must be selfie or document");
    r.image_sealed = args::require(args::bytea(fcinfo, 5), "image_sealed");
    if (r.image_sealed.size() < verify::subject_sealed_bytes_min ||
        r.image_sealed.size() > verify::image_bytes_max + verify::subject_sealed_bytes_min - 1) {
        args::throw_validation("image_sealed: must be sealed image data of at most 16 MiB");
    }
    r.format = args::require(args::text(fcinfo, 6), "format");
    if (r.format != "png" && r.format != "jpeg") args::throw_validation("format: must be png or jpeg");
    r.width = args::require(args::int4(fcinfo, 7), "width");
    r.height = args::require(args::int4(fcinfo, 8), "height");
    if (r.width < 1 || r.width > 65535 || r.height < 1 || r.height > 65535) {
        args::throw_validation("width, height: must be 1 to 65535 pixels");
    }
    r.byte_count = args::require(args::int4(fcinfo, 9), "byte_count");
    if (r.byte_count < 1 || static_cast<std::size_t>(r.byte_count) > verify::image_bytes_max) {
        args::throw_validation("byte_count: must be 1 to 16777216");
    }
    r.image_sha256 = require_hash(fcinfo, 10, "image_sha256");
    return r;
}

}  // namespace

/* SQL function: corebank.verify_hosted_state(session_id uuid, client_token_hash bytea) returns jsonb */
COREBANK_FUNCTION(verify_hosted_state) {
    const Uuid session_id = args::require(args::uuid(fcinfo, 0), "session_id");
    const std::string token_hash = require_hash(fcinfo, 1, "client_token_hash");

    // A read: no row lock, the page polls this.
    spi::connect();
    const std::uint64_t rows = spi::execute(token_of_session_sql, {spi::Arg::uuid(session_id)});
    CB_CHECK(rows <= 1);
    const bool authorised = rows == 1 && spi::get_bool(0, 2).value() &&
                            core::constant_time_equal(spi::get_bytea(0, 1).value(), token_hash);
    if (!authorised) {
        spi::finish();
        PG_RETURN_NULL();
    }
    const Datum state = store::session_json_for_return(session_id, store::ResponseShape::hosted);
    spi::finish();
    PG_RETURN_DATUM(state);
}

/* SQL function: corebank.verify_hosted_consent(session_id uuid, client_token_hash bytea, idempotency_key text, request_hash bytea, granted bool, version text, text_sha256 bytea, ip text, user_agent text) returns jsonb */
COREBANK_FUNCTION(verify_hosted_consent) {
    const Uuid session_id = args::require(args::uuid(fcinfo, 0), "session_id");
    const std::string token_hash = require_hash(fcinfo, 1, "client_token_hash");
    const std::string idempotency_key = require_idempotency_key(fcinfo, 2);
    const std::string request_hash = require_hash(fcinfo, 3, "request_hash");
    const pg::verify_args::ConsentRequest consent = pg::verify_args::read_consent(fcinfo, 4);
    const store::IdempotencyKey key{session_id, idempotency_key, "hosted.consent", session_id, request_hash};

    spi::connect();
    const store::SessionRow session = authorise(session_id, token_hash, true);
    if (!store::claim(key)) PG_RETURN_DATUM(store::finish_with_replay(key));
    store::apply_consent(session, consent, "hosted_page");
    PG_RETURN_DATUM(answered(key, session_id));
}

/* SQL function: corebank.verify_hosted_capture(session_id uuid, client_token_hash bytea, idempotency_key text, request_hash bytea, kind text, image_sealed bytea, format text, width int, height int, byte_count int, image_sha256 bytea) returns jsonb */
COREBANK_FUNCTION(verify_hosted_capture) {
    const CaptureRequest r = read_capture_request(fcinfo);
    const store::IdempotencyKey key{r.session_id, r.idempotency_key, "hosted.capture", r.session_id, r.request_hash};

    spi::connect();
    const store::SessionRow session = authorise(r.session_id, r.token_hash, true);
    if (!store::claim(key)) PG_RETURN_DATUM(store::finish_with_replay(key));
    if (!verify::allowed(session.effective, verify::Transition::capture)) {
        conflict(verify::refusal_message(session.effective, verify::Transition::capture));
    }
    if (!verify::captures_kind(session.flow, r.kind)) {
        unprocessable("kind: the " + verify::flow_name(session.flow) + " flow captures no " + r.kind + " image");
    }
    if (consent_missing(session)) {
        unprocessable("Consent must be recorded before biometric capture");
    }
    if (spi::execute(capture_attempts_sql, {spi::Arg::uuid(r.session_id), spi::Arg::text(r.kind)}) == 1 &&
        spi::get_int(0, 1).value() >= verify::captures_per_kind_max) {
        unprocessable(r.kind + ": at most " + std::to_string(verify::captures_per_kind_max) +
                      " captures per session; start a new session");
    }
    const std::uint64_t rows = spi::execute(
        upsert_capture_sql,
        {spi::Arg::uuid(r.session_id), spi::Arg::text(r.kind), spi::Arg::bytea(r.image_sealed),
         spi::Arg::text(r.format), spi::Arg::int4(r.width), spi::Arg::int4(r.height), spi::Arg::int4(r.byte_count),
         spi::Arg::bytea(r.image_sha256)});
    CB_CHECK(rows == 1);
    const std::int64_t attempt = spi::get_int(0, 1).value();
    CB_CHECK(attempt >= 1 && attempt <= verify::captures_per_kind_max);
    store::append_event(r.session_id, "capture_received",
                        std::string(R"({"kind":")") + r.kind + R"(","attempt":)" + std::to_string(attempt) + "}");
    PG_RETURN_DATUM(answered(key, r.session_id));
}

/* SQL function: corebank.verify_hosted_submit_begin(session_id uuid, client_token_hash bytea, idempotency_key text, request_hash bytea) returns jsonb */
COREBANK_FUNCTION(verify_hosted_submit_begin) {
    const Uuid session_id = args::require(args::uuid(fcinfo, 0), "session_id");
    const std::string token_hash = require_hash(fcinfo, 1, "client_token_hash");
    const std::string idempotency_key = require_idempotency_key(fcinfo, 2);
    const std::string request_hash = require_hash(fcinfo, 3, "request_hash");
    const store::IdempotencyKey key{session_id, idempotency_key, "hosted.submit", session_id, request_hash};

    spi::connect();
    const store::SessionRow session = authorise(session_id, token_hash, true);
    if (!store::claim(key)) PG_RETURN_DATUM(store::finish_with_replay(key));
    if (!verify::allowed(session.effective, verify::Transition::submit)) {
        conflict(verify::refusal_message(session.effective, verify::Transition::submit));
    }
    if (consent_missing(session)) unprocessable("Consent must be recorded before the checks can run");
    const std::vector<std::string> stored = store::stored_capture_kinds(session_id);
    const auto has = [&stored](const char* kind) {
        for (const auto& s : stored)
            if (s == kind) return true;
        return false;
    };
    std::string missing;
    if (verify::needs_selfie(session.flow) && !has("selfie")) missing = "selfie: an image is required";
    if (verify::needs_document(session.flow) && !has("document")) {
        missing += (missing.empty() ? "" : "; ") + std::string("document: an image is required");
    }
    if (!missing.empty()) unprocessable(missing);

    store::set_processing(session_id);
    store::append_event(session_id, "submitted", std::nullopt);
    spi::execute(begin_result_sql, {spi::Arg::text(verify::flow_name(session.flow)),
                                    spi::Arg::text_array(verify::check_types(session.flow))});
    const Datum begun = spi::get_required_jsonb_for_return(0, 1);
    spi::finish();
    PG_RETURN_DATUM(begun);
}

/* SQL function: corebank.verify_hosted_submit_finish(session_id uuid, client_token_hash bytea, idempotency_key text, provider text, checks jsonb) returns jsonb */
COREBANK_FUNCTION(verify_hosted_submit_finish) {
    const Uuid session_id = args::require(args::uuid(fcinfo, 0), "session_id");
    const std::string token_hash = require_hash(fcinfo, 1, "client_token_hash");
    const std::string idempotency_key = require_idempotency_key(fcinfo, 2);
    const std::string provider = args::require(args::text(fcinfo, 3), "provider");
    const std::string checks = args::require(args::jsonb_text(fcinfo, 4), "checks");
    const store::IdempotencyKey key{session_id, idempotency_key, "hosted.submit", session_id, std::string(32, '\0')};

    spi::connect();
    // The token may have expired while the checks ran; it must still match.
    const store::SessionRow session = authorise(session_id, token_hash, false);
    const std::uint64_t rows =
        spi::execute(submission_key_sql, {spi::Arg::uuid(session_id), spi::Arg::text(idempotency_key)});
    if (rows != 1 || !spi::get_bool(0, 1).value() || !spi::get_bool(0, 2).value()) {
        conflict("No submission is in progress under this Idempotency-Key");
    }
    // Cancelled or expired while the checks ran: the results are dropped and
    // the key answers with the session as it is.
    if (!verify::allowed(session.effective, verify::Transition::finish)) PG_RETURN_DATUM(answered(key, session_id));

    const verify::CheckResults results = verify::parse_check_results(checks, session.flow, provider);
    const verify::Decision decision = verify::decide(results.outcomes);
    store::set_completed(session_id, decision, results.checks_json, provider);
    store::purge_captures(session_id);
    store::append_event(session_id, "completed",
                        std::string(R"({"decision":")") + decision.decision + R"(","provider":")" + provider + R"("})");
    store::enqueue_webhook(session_id, "session.completed");
    PG_RETURN_DATUM(answered(key, session_id));
}

/* SQL function: corebank.verify_hosted_submit_abort(session_id uuid, client_token_hash bytea, idempotency_key text, error text) returns jsonb */
COREBANK_FUNCTION(verify_hosted_submit_abort) {
    const Uuid session_id = args::require(args::uuid(fcinfo, 0), "session_id");
    const std::string token_hash = require_hash(fcinfo, 1, "client_token_hash");
    const std::string idempotency_key = require_idempotency_key(fcinfo, 2);
    std::string error = args::text(fcinfo, 3).value_or("provider error");
    if (error.size() > verify::provider_error_length_max) error.resize(verify::provider_error_length_max);
    const store::IdempotencyKey key{session_id, idempotency_key, "hosted.submit", session_id, std::string(32, '\0')};

    spi::connect();
    const store::SessionRow session = authorise(session_id, token_hash, false);
    if (session.stored == verify::Status::processing) {
        store::set_pending(session_id);
        const nlohmann::json detail{{"error", error}};
        store::append_event(session_id, "checks_failed",
                            detail.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
    store::forget(key);
    const Datum state = store::session_json_for_return(session_id, store::ResponseShape::hosted);
    spi::finish();
    PG_RETURN_DATUM(state);
}
