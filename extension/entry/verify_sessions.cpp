// verify_sessions.cpp: the caller's writes on verification sessions (API
// key), and the maintenance pass.
//
//   corebank.verify_session_create   a pending session, its client token's
//       hash, the sealed subject; 201 under an idempotency key;
//   corebank.verify_session_cancel   pending or processing -> cancelled;
//   corebank.verify_session_consent  consent collected by the caller's own UI;
//   corebank.verify_maintenance      expires overdue sessions, returns stuck
//       submissions to pending, forgets idempotency keys after 24 hours.
// Every write returns {"replayed", "status", "body", "clientTokenSealed"}:
// the stored response of its idempotency key, first time and on replay
// alike. Errors (validation, 404, 409) roll the key back with everything
// else, so a refused request is never replayed: its retry is decided anew.
// nlohmann first: PostgreSQL's port.h redefines snprintf, which it uses.
#include <nlohmann/json.hpp>

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

constexpr int idempotency_prune_batch = 5000;

/*---- statements ----*/

constexpr const char insert_session_sql[] =
    "INSERT INTO corebank.verify_sessions (id, api_key_id, flow, reference, redirect_url, metadata, subject_sealed, "
    "    subject_lookup, client_token_hash, client_token_expires_at, consent_required, expires_at) "
    "VALUES ($1, $2, $3, $4, $5, coalesce($6, '{}'::jsonb), $7, $8, $9, "
    "        now() + make_interval(secs => least($10, $11)), $12, now() + make_interval(secs => $11))";

constexpr const char due_sessions_sql[] =
    "SELECT s.id FROM corebank.verify_sessions s "
    "WHERE s.status IN ('pending', 'processing') AND s.expires_at <= now() "
    "ORDER BY s.expires_at LIMIT $1 FOR UPDATE SKIP LOCKED";

constexpr const char stuck_sessions_sql[] =
    "SELECT s.id FROM corebank.verify_sessions s "
    "WHERE s.status = 'processing' AND s.processing_started_at <= now() - make_interval(secs => $1) "
    "  AND s.expires_at > now() "
    "ORDER BY s.processing_started_at LIMIT $2 FOR UPDATE SKIP LOCKED";

constexpr const char forget_stuck_submission_sql[] =
    "DELETE FROM corebank.verify_idempotency_keys k "
    "WHERE k.scope = $1 AND k.operation = 'hosted.submit' AND k.response IS NULL";

constexpr const char prune_keys_sql[] =
    "DELETE FROM corebank.verify_idempotency_keys k "
    "WHERE k.ctid = ANY (ARRAY(SELECT x.ctid FROM corebank.verify_idempotency_keys x "
    "                          WHERE x.created_at <= now() - interval '24 hours' LIMIT $1))";

constexpr const char maintenance_result_sql[] =
    "SELECT jsonb_build_object('expired', $1, 'reverted', $2, 'idempotencyKeysForgotten', $3)";

[[noreturn]] void not_found() { throw core::CoreError(core::sqlstate_not_found, "Session not found"); }

[[noreturn]] void conflict(const std::string& message) { throw core::CoreError(core::sqlstate_conflict, message); }

/*---- create ----*/

struct CreateRequest {
    Uuid api_key_id;
    std::string idempotency_key;
    std::string request_hash;
    Uuid session_id;
    verify::Flow flow;
    std::optional<std::string> reference;
    std::optional<std::string> subject_sealed;
    std::optional<std::string> subject_lookup;
    std::optional<std::string> redirect_url;
    std::optional<std::string> metadata;
    std::string client_token_hash;
    std::string client_token_sealed;
    std::int32_t lifetime_s;
    std::int32_t client_token_ttl_s;
};

CreateRequest read_create_request(FunctionCallInfo fcinfo) {
    CreateRequest r;
    r.api_key_id = args::require(args::uuid(fcinfo, 0), "api_key_id");
    r.idempotency_key = require_idempotency_key(fcinfo, 1);
    r.request_hash = require_hash(fcinfo, 2, "request_hash");
    r.session_id = args::require(args::uuid(fcinfo, 3), "session_id");
    const std::string flow_text = args::require(args::text(fcinfo, 4), "flow");
    const auto flow = verify::parse_flow(flow_text);
    if (!flow) {
        args::throw_validation("flow: must be liveness, facematch or document, or several joined by '+' "
                               "(for example liveness+facematch+document)");
    }
    r.flow = *flow;
    r.reference = args::blank_to_null(args::text(fcinfo, 5));
    args::check_length(r.reference, "reference", verify::reference_length_max);
    r.subject_sealed = args::bytea(fcinfo, 6);
    r.subject_lookup = args::bytea(fcinfo, 7);
    if (r.subject_sealed && (r.subject_sealed->size() < verify::subject_sealed_bytes_min ||
                             r.subject_sealed->size() > verify::subject_sealed_bytes_max)) {
        args::throw_validation("subject_sealed: must be AES-256-GCM sealed data of 29 to 4096 bytes");
    }
    // Plaintext JSON would start with '{': a tier bug must never store it.
    if (r.subject_sealed && r.subject_sealed->front() == '{' && r.subject_sealed->back() == '}') {
        args::throw_validation("subject_sealed: must be sealed, not plaintext JSON");
    }
    if (r.subject_lookup && (r.subject_lookup->size() != verify::sha256_bytes || !r.subject_sealed)) {
        args::throw_validation("subject_lookup: must be 32 bytes, and only with a sealed subject");
    }
    r.redirect_url = args::text(fcinfo, 8);
    if (r.redirect_url && !verify::http_url_valid(*r.redirect_url, verify::redirect_url_length_max)) {
        args::throw_validation("redirectUrl: must be an absolute http(s) URL of at most 2048 characters");
    }
    r.metadata = args::jsonb_text(fcinfo, 9);
    if (r.metadata) {
        if (const auto problem = verify::metadata_problem(*r.metadata)) args::throw_validation(*problem);
    }
    r.client_token_hash = require_hash(fcinfo, 10, "client_token_hash");
    r.client_token_sealed = args::require(args::bytea(fcinfo, 11), "client_token_sealed");
    if (r.client_token_sealed.size() < verify::subject_sealed_bytes_min ||
        r.client_token_sealed.size() > verify::token_sealed_bytes_max) {
        args::throw_validation("client_token_sealed: must be sealed data of 29 to 1024 bytes");
    }
    r.lifetime_s = args::require(args::int4(fcinfo, 12), "lifetime_s");
    r.client_token_ttl_s = args::require(args::int4(fcinfo, 13), "client_token_ttl_s");
    if (r.lifetime_s < verify::lifetime_s_min || r.lifetime_s > verify::lifetime_s_max) {
        args::throw_validation("lifetime_s: must be between 300 and 604800");
    }
    if (r.client_token_ttl_s < verify::client_token_ttl_s_min || r.client_token_ttl_s > verify::client_token_ttl_s_max) {
        args::throw_validation("client_token_ttl_s: must be between 60 and 86400");
    }
    return r;
}

}  // namespace

/* SQL function: corebank.verify_session_create(api_key_id uuid, idempotency_key text, request_hash bytea, session_id uuid, flow text, reference text, subject_sealed bytea, subject_lookup bytea, redirect_url text, metadata jsonb, client_token_hash bytea, client_token_sealed bytea, lifetime_s int, client_token_ttl_s int) returns jsonb */
COREBANK_FUNCTION(verify_session_create) {
    const CreateRequest r = read_create_request(fcinfo);
    const store::IdempotencyKey key{r.api_key_id, r.idempotency_key, "session.create", std::nullopt, r.request_hash};

    spi::connect();
    if (!store::claim(key)) PG_RETURN_DATUM(store::finish_with_replay(key));
    spi::execute(insert_session_sql,
                 {spi::Arg::uuid(r.session_id), spi::Arg::uuid(r.api_key_id), spi::Arg::text(verify::flow_name(r.flow)),
                  spi::Arg::text(r.reference), spi::Arg::text(r.redirect_url), spi::Arg::jsonb(r.metadata),
                  spi::Arg::bytea(r.subject_sealed), spi::Arg::bytea(r.subject_lookup),
                  spi::Arg::bytea(r.client_token_hash), spi::Arg::int4(r.client_token_ttl_s),
                  spi::Arg::int4(r.lifetime_s), spi::Arg::boolean(verify::needs_consent(r.flow))});
    store::append_event(r.session_id, "created", std::string(R"({"flow":")") + verify::flow_name(r.flow) + R"("})");
    store::store_response(key, 201, store::ResponseShape::session, r.session_id, r.client_token_sealed);
    const Datum created = store::stored_response_for_return(key, false);
    spi::finish();
    PG_RETURN_DATUM(created);
}

/* SQL function: corebank.verify_session_cancel(api_key_id uuid, idempotency_key text, request_hash bytea, session_id uuid, reason text) returns jsonb */
COREBANK_FUNCTION(verify_session_cancel) {
    const Uuid api_key_id = args::require(args::uuid(fcinfo, 0), "api_key_id");
    const std::string idempotency_key = require_idempotency_key(fcinfo, 1);
    const std::string request_hash = require_hash(fcinfo, 2, "request_hash");
    const Uuid session_id = args::require(args::uuid(fcinfo, 3), "session_id");
    const std::optional<std::string> reason = args::blank_to_null(args::text(fcinfo, 4));
    args::check_length(reason, "reason", verify::cancellation_reason_length_max);
    const store::IdempotencyKey key{api_key_id, idempotency_key, "session.cancel", session_id, request_hash};

    spi::connect();
    const auto session = store::lock_session(session_id);
    if (!session) not_found();
    // The key first: a retry of a cancel that succeeded replays its 200,
    // although the session is terminal by now.
    if (!store::claim(key)) PG_RETURN_DATUM(store::finish_with_replay(key));
    if (!verify::allowed(session->effective, verify::Transition::cancel)) {
        conflict(verify::refusal_message(session->effective, verify::Transition::cancel));
    }
    store::cancel(session_id, "caller", reason.value_or("cancelled by the caller"));
    store::store_response(key, 200, store::ResponseShape::session, session_id, std::nullopt);
    const Datum cancelled = store::stored_response_for_return(key, false);
    spi::finish();
    PG_RETURN_DATUM(cancelled);
}

/* SQL function: corebank.verify_session_consent(api_key_id uuid, idempotency_key text, request_hash bytea, session_id uuid, granted bool, version text, text_sha256 bytea, ip text, user_agent text) returns jsonb */
COREBANK_FUNCTION(verify_session_consent) {
    const Uuid api_key_id = args::require(args::uuid(fcinfo, 0), "api_key_id");
    const std::string idempotency_key = require_idempotency_key(fcinfo, 1);
    const std::string request_hash = require_hash(fcinfo, 2, "request_hash");
    const Uuid session_id = args::require(args::uuid(fcinfo, 3), "session_id");
    const pg::verify_args::ConsentRequest consent = pg::verify_args::read_consent(fcinfo, 4);
    const store::IdempotencyKey key{api_key_id, idempotency_key, "session.consent", session_id, request_hash};

    spi::connect();
    const auto session = store::lock_session(session_id);
    if (!session) not_found();
    if (!store::claim(key)) PG_RETURN_DATUM(store::finish_with_replay(key));
    store::apply_consent(*session, consent, "api");
    store::store_response(key, 200, store::ResponseShape::session, session_id, std::nullopt);
    const Datum recorded = store::stored_response_for_return(key, false);
    spi::finish();
    PG_RETURN_DATUM(recorded);
}

namespace {

std::vector<Uuid> selected_ids(std::uint64_t rows) {
    std::vector<Uuid> ids;
    ids.reserve(rows);
    for (std::uint64_t row = 0; row < rows; ++row) ids.push_back(spi::get_uuid(row, 1).value());
    return ids;
}

}  // namespace

/* SQL function: corebank.verify_maintenance(stale_processing_s int) returns jsonb */
COREBANK_FUNCTION(verify_maintenance) {
    const std::int32_t stale_processing_s = args::require(args::int4(fcinfo, 0), "stale_processing_s");
    if (stale_processing_s < verify::stale_processing_s_min || stale_processing_s > verify::stale_processing_s_max) {
        args::throw_validation("stale_processing_s: must be between 10 and 3600");
    }

    spi::connect();
    // SKIP LOCKED: a session some request holds is taken by the next pass.
    const std::vector<Uuid> due =
        selected_ids(spi::execute(due_sessions_sql, {spi::Arg::int4(verify::maintenance_batch_max)}));
    for (const Uuid& id : due) store::expire(id);

    const std::vector<Uuid> stuck = selected_ids(spi::execute(
        stuck_sessions_sql, {spi::Arg::int4(stale_processing_s), spi::Arg::int4(verify::maintenance_batch_max)}));
    for (const Uuid& id : stuck) {
        store::set_pending(id);
        spi::execute(forget_stuck_submission_sql, {spi::Arg::uuid(id)});
        store::append_event(id, "processing_reverted", std::nullopt);
    }

    const std::uint64_t forgotten = spi::execute(prune_keys_sql, {spi::Arg::int4(idempotency_prune_batch)});
    CB_CHECK(due.size() <= static_cast<std::size_t>(verify::maintenance_batch_max));
    spi::execute(maintenance_result_sql, {spi::Arg::int4(static_cast<std::int32_t>(due.size())),
                                          spi::Arg::int4(static_cast<std::int32_t>(stuck.size())),
                                          spi::Arg::int4(static_cast<std::int32_t>(forgotten))});
    const Datum result = spi::get_required_jsonb_for_return(0, 1);
    spi::finish();
    PG_RETURN_DATUM(result);
}
