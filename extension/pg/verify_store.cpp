// verify_store.cpp: see verify_store.hpp.
#include "pg/verify_store.hpp"

#include "core/crypto.hpp"
#include "core/errors.hpp"
#include "pg/check.hpp"
#include "pg/spi.hpp"

namespace corebank::pg::verify_store {

namespace {

namespace spi = corebank::pg::spi;

/*---- statements ----*/

// Columns: 1 status, 2 flow, 3 expiry passed, 4 consent required, 5 consent
// granted (NULL: none), 6 client token hash, 7 client token live.
constexpr const char lock_session_sql[] =
    "SELECT s.status, s.flow, s.expires_at <= now(), s.consent_required, c.granted, s.client_token_hash, "
    "       s.client_token_expires_at > now() "
    "FROM corebank.verify_sessions s "
    "LEFT JOIN corebank.verify_consents c ON c.session_id = s.id "
    "WHERE s.id = $1 FOR UPDATE OF s";

constexpr const char capture_kinds_sql[] =
    "SELECT x.kind FROM corebank.verify_captures x "
    "WHERE x.session_id = $1 AND x.image_sealed IS NOT NULL ORDER BY x.kind";

// A key older than 24 hours is forgotten: the upsert takes it over. A live
// key is only locked (ON CONFLICT DO UPDATE locks the row even when WHERE is
// false), so the comparison below reads a row nobody changes meanwhile.
constexpr const char claim_sql[] =
    "INSERT INTO corebank.verify_idempotency_keys AS k (scope, idem_key, operation, session_id, request_hash) "
    "VALUES ($1, $2, $3, $4, $5) "
    "ON CONFLICT (scope, idem_key) DO UPDATE "
    "SET operation = excluded.operation, session_id = excluded.session_id, request_hash = excluded.request_hash, "
    "    response_status = NULL, response = NULL, response_sealed = NULL, created_at = now() "
    "WHERE k.created_at <= now() - interval '24 hours' "
    "RETURNING true";

// Columns: 1 same operation, 2 same target, 3 same request, 4 has a response.
constexpr const char compare_key_sql[] =
    "SELECT k.operation = $3, k.session_id IS NOT DISTINCT FROM $4, k.request_hash = $5, k.response IS NOT NULL "
    "FROM corebank.verify_idempotency_keys k WHERE k.scope = $1 AND k.idem_key = $2";

constexpr const char store_session_response_sql[] =
    "UPDATE corebank.verify_idempotency_keys k "
    "SET response_status = $3, response = corebank_internal.verify_session_json($4), response_sealed = $5 "
    "WHERE k.scope = $1 AND k.idem_key = $2";

constexpr const char store_hosted_response_sql[] =
    "UPDATE corebank.verify_idempotency_keys k "
    "SET response_status = $3, response = corebank_internal.verify_hosted_json($4), response_sealed = $5 "
    "WHERE k.scope = $1 AND k.idem_key = $2";

constexpr const char store_check_response_sql[] =
    "UPDATE corebank.verify_idempotency_keys k "
    "SET response_status = $3, response = corebank_internal.verify_check_json($4), response_sealed = $5 "
    "WHERE k.scope = $1 AND k.idem_key = $2";

constexpr const char forget_key_sql[] =
    "DELETE FROM corebank.verify_idempotency_keys k "
    "WHERE k.scope = $1 AND k.idem_key = $2 AND k.response IS NULL";

constexpr const char stored_response_sql[] =
    "SELECT jsonb_build_object('replayed', $3, 'status', k.response_status, 'body', k.response, "
    "                          'clientTokenSealed', encode(k.response_sealed, 'hex')) "
    "FROM corebank.verify_idempotency_keys k WHERE k.scope = $1 AND k.idem_key = $2";

constexpr const char append_event_sql[] =
    "INSERT INTO corebank.verify_session_events (session_id, event, detail) VALUES ($1, $2, $3)";

// The body is built from values that need no escaping (a UUID, a fixed type,
// a timestamp), compact and in the documented key order; it is stored once
// and every attempt sends these exact bytes.
constexpr const char enqueue_webhook_sql[] =
    "WITH event AS ("
    "  INSERT INTO corebank.verify_webhook_events AS e (id, type, session_id, created_at, body) "
    "  SELECT x.id, $2, $1, x.at, "
    "         format('{\"id\":\"%s\",\"type\":\"%s\",\"createdAt\":\"%s\",\"data\":{\"sessionId\":\"%s\"}}', "
    "                x.id, $2, corebank_internal.verify_iso_utc(x.at), $1) "
    "  FROM (SELECT gen_random_uuid() AS id, now() AS at) x "
    "  ON CONFLICT (session_id, type) DO NOTHING "
    "  RETURNING e.id) "
    "INSERT INTO corebank.verify_webhook_deliveries (event_id, endpoint_id) "
    "SELECT event.id, p.id FROM event CROSS JOIN corebank.verify_webhook_endpoints p "
    "WHERE p.status = 'active' AND (p.events IS NULL OR $2 = ANY (p.events))";

constexpr const char purge_captures_sql[] =
    "UPDATE corebank.verify_captures SET image_sealed = NULL, purged_at = now() "
    "WHERE session_id = $1 AND image_sealed IS NOT NULL";

constexpr const char set_cancelled_sql[] =
    "UPDATE corebank.verify_sessions "
    "SET status = 'cancelled', cancelled_at = now(), cancelled_by = $2, cancellation_reason = $3, "
    "    processing_started_at = NULL, updated_at = now() "
    "WHERE id = $1";

constexpr const char set_expired_sql[] =
    "UPDATE corebank.verify_sessions "
    "SET status = 'expired', expired_at = now(), processing_started_at = NULL, updated_at = now() "
    "WHERE id = $1";

constexpr const char set_processing_sql[] =
    "UPDATE corebank.verify_sessions "
    "SET status = 'processing', processing_started_at = now(), updated_at = now() WHERE id = $1";

constexpr const char set_pending_sql[] =
    "UPDATE corebank.verify_sessions "
    "SET status = 'pending', processing_started_at = NULL, updated_at = now() WHERE id = $1";

constexpr const char set_completed_sql[] =
    "UPDATE corebank.verify_sessions "
    "SET status = 'completed', decision = $2, decision_reasons = $3, checks = $4, provider = $5, "
    "    completed_at = now(), processing_started_at = NULL, updated_at = now() "
    "WHERE id = $1";

constexpr const char insert_consent_sql[] =
    "INSERT INTO corebank.verify_consents (session_id, granted, channel, version, text_sha256, ip, user_agent) "
    "VALUES ($1, $2, $3, $4, $5, $6, $7)";

constexpr const char session_json_sql[] = "SELECT corebank_internal.verify_session_json($1)";
constexpr const char hosted_json_sql[] = "SELECT corebank_internal.verify_hosted_json($1)";

[[noreturn]] void throw_conflict(const std::string& message) {
    throw core::CoreError(core::sqlstate_conflict, message);
}

Datum single_jsonb(const char* sql, const Uuid& session_id) {
    const std::uint64_t rows = spi::execute(sql, {spi::Arg::uuid(session_id)});
    CB_CHECK(rows == 1);
    return spi::get_required_jsonb_for_return(0, 1);
}

}  // namespace

std::optional<SessionRow> lock_session(const Uuid& session_id) {
    const std::uint64_t rows = spi::execute(lock_session_sql, {spi::Arg::uuid(session_id)});
    if (rows == 0) return std::nullopt;
    CB_CHECK(rows == 1);
    SessionRow row;
    row.id = session_id;
    const auto stored = verify::parse_status(spi::get_text(0, 1).value());
    const auto flow = verify::parse_flow(spi::get_text(0, 2).value());
    CB_CHECK(stored.has_value() && flow.has_value());  // the table's CHECKs
    row.stored = *stored;
    row.flow = *flow;
    row.effective = verify::effective_status(row.stored, spi::get_bool(0, 3).value());
    row.consent_required = spi::get_bool(0, 4).value();
    row.consent_granted = spi::get_bool(0, 5);
    row.client_token_hash = spi::get_bytea(0, 6).value();
    row.client_token_live = spi::get_bool(0, 7).value();
    CB_CHECK(row.client_token_hash.size() == verify::sha256_bytes);
    return row;
}

void require_client_token(const SessionRow& session, const std::string& token_hash, bool require_live) {
    const bool matches = core::constant_time_equal(session.client_token_hash, token_hash);
    if (!matches || (require_live && !session.client_token_live)) {
        throw core::CoreError(core::sqlstate_unauthorized, "Client token is invalid or expired");
    }
}

std::vector<std::string> stored_capture_kinds(const Uuid& session_id) {
    const std::uint64_t rows = spi::execute(capture_kinds_sql, {spi::Arg::uuid(session_id)});
    CB_CHECK(rows <= 2);
    std::vector<std::string> kinds;
    for (std::uint64_t row = 0; row < rows; ++row) kinds.push_back(spi::get_text(row, 1).value());
    return kinds;
}

bool claim(const IdempotencyKey& key) {
    CB_CHECK(key.request_hash.size() == verify::sha256_bytes);
    if (!verify::idempotency_key_valid(key.key)) {
        throw core::CoreError(core::sqlstate_validation,
                              "Idempotency-Key: must be 1 to 255 printable ASCII characters without spaces");
    }
    const std::uint64_t claimed =
        spi::execute(claim_sql, {spi::Arg::uuid(key.scope), spi::Arg::text(key.key), spi::Arg::text(key.operation),
                                 spi::Arg::uuid(key.target), spi::Arg::bytea(key.request_hash)});
    if (claimed == 1) return true;
    CB_CHECK(claimed == 0);
    const std::uint64_t rows =
        spi::execute(compare_key_sql, {spi::Arg::uuid(key.scope), spi::Arg::text(key.key),
                                       spi::Arg::text(key.operation), spi::Arg::uuid(key.target),
                                       spi::Arg::bytea(key.request_hash)});
    CB_CHECK(rows == 1);  // the conflicting row is locked: it cannot have gone
    switch (verify::idempotency_outcome(false, spi::get_bool(0, 1).value(), spi::get_bool(0, 2).value(),
                                        spi::get_bool(0, 3).value(), spi::get_bool(0, 4).value())) {
        case verify::Replay::replay:
            return false;
        case verify::Replay::in_progress:
            throw_conflict("A request with this Idempotency-Key is still being processed; retry it shortly");
        case verify::Replay::conflict:
        case verify::Replay::fresh:
            break;
    }
    throw_conflict("Idempotency-Key was already used with a different request; use a new key for a new request");
}

void store_response(const IdempotencyKey& key, int status, ResponseShape shape, const Uuid& session_id,
                    const std::optional<std::string>& client_token_sealed) {
    CB_CHECK(status >= 200 && status <= 299);
    const std::uint64_t rows = spi::execute(
        shape == ResponseShape::session  ? store_session_response_sql
        : shape == ResponseShape::hosted ? store_hosted_response_sql
                                         : store_check_response_sql,
        {spi::Arg::uuid(key.scope), spi::Arg::text(key.key), spi::Arg::int4(status), spi::Arg::uuid(session_id),
         spi::Arg::bytea(client_token_sealed)});
    CB_CHECK(rows == 1);
}

void forget(const IdempotencyKey& key) {
    spi::execute(forget_key_sql, {spi::Arg::uuid(key.scope), spi::Arg::text(key.key)});
}

Datum stored_response_for_return(const IdempotencyKey& key, bool replayed) {
    const std::uint64_t rows = spi::execute(
        stored_response_sql, {spi::Arg::uuid(key.scope), spi::Arg::text(key.key), spi::Arg::boolean(replayed)});
    CB_CHECK(rows == 1);
    return spi::get_required_jsonb_for_return(0, 1);
}

Datum finish_with_replay(const IdempotencyKey& key) {
    const Datum replay = stored_response_for_return(key, true);
    spi::finish();
    return replay;
}

void append_event(const Uuid& session_id, const char* event, const std::optional<std::string>& detail_json) {
    spi::execute(append_event_sql, {spi::Arg::uuid(session_id), spi::Arg::text(event), spi::Arg::jsonb(detail_json)});
}

void enqueue_webhook(const Uuid& session_id, const char* type) {
    spi::execute(enqueue_webhook_sql, {spi::Arg::uuid(session_id), spi::Arg::text(type)});
}

void purge_captures(const Uuid& session_id) { spi::execute(purge_captures_sql, {spi::Arg::uuid(session_id)}); }

void set_cancelled(const Uuid& session_id, const char* cancelled_by, const std::string& reason) {
    const std::uint64_t rows = spi::execute(
        set_cancelled_sql, {spi::Arg::uuid(session_id), spi::Arg::text(cancelled_by), spi::Arg::text(reason)});
    CB_CHECK(rows == 1);
}

void set_expired(const Uuid& session_id) {
    const std::uint64_t rows = spi::execute(set_expired_sql, {spi::Arg::uuid(session_id)});
    CB_CHECK(rows == 1);
}

void set_processing(const Uuid& session_id) {
    const std::uint64_t rows = spi::execute(set_processing_sql, {spi::Arg::uuid(session_id)});
    CB_CHECK(rows == 1);
}

void set_pending(const Uuid& session_id) {
    const std::uint64_t rows = spi::execute(set_pending_sql, {spi::Arg::uuid(session_id)});
    CB_CHECK(rows == 1);
}

void set_completed(const Uuid& session_id, const verify::Decision& decision, const std::string& checks_json,
                   const std::string& provider) {
    const std::uint64_t rows =
        spi::execute(set_completed_sql, {spi::Arg::uuid(session_id), spi::Arg::text(decision.decision),
                                         spi::Arg::text_array(decision.reasons), spi::Arg::jsonb(checks_json),
                                         spi::Arg::text(provider)});
    CB_CHECK(rows == 1);
}

void cancel(const Uuid& session_id, const char* cancelled_by, const std::string& reason) {
    set_cancelled(session_id, cancelled_by, reason);
    purge_captures(session_id);
    append_event(session_id, "cancelled", std::string(R"({"by":")") + cancelled_by + R"("})");
    enqueue_webhook(session_id, "session.cancelled");
}

void expire(const Uuid& session_id) {
    set_expired(session_id);
    purge_captures(session_id);
    append_event(session_id, "expired", std::nullopt);
    enqueue_webhook(session_id, "session.expired");
}

void record_consent(const Uuid& session_id, bool granted, const char* channel, const std::string& version,
                    const std::optional<std::string>& text_sha256, const std::optional<std::string>& ip,
                    const std::optional<std::string>& user_agent) {
    spi::execute(insert_consent_sql, {spi::Arg::uuid(session_id), spi::Arg::boolean(granted), spi::Arg::text(channel),
                                      spi::Arg::text(version), spi::Arg::bytea(text_sha256), spi::Arg::text(ip),
                                      spi::Arg::text(user_agent)});
    append_event(session_id, granted ? "consent_granted" : "consent_declined",
                 std::string(R"({"channel":")") + channel + R"("})");
}

void apply_consent(const SessionRow& session, const verify_args::ConsentRequest& request, const char* channel) {
    if (!verify::allowed(session.effective, verify::Transition::consent)) {
        throw_conflict(verify::refusal_message(session.effective, verify::Transition::consent));
    }
    if (session.consent_granted.has_value()) throw_conflict("Consent is already recorded for this session");
    record_consent(session.id, request.granted, channel, request.version, request.text_sha256, request.ip,
                   request.user_agent);
    if (!request.granted) cancel(session.id, "user", "consent_declined");
}

Datum session_json_for_return(const Uuid& session_id, ResponseShape shape) {
    return single_jsonb(shape == ResponseShape::session ? session_json_sql : hosted_json_sql, session_id);
}

}  // namespace corebank::pg::verify_store
