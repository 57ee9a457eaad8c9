// verify_store.hpp: the rows of the verification service, read and written
// through SPI for the C++ functions in entry/verify_*.cpp.
//
// Locking rules: every operation on a session first locks its row
// (lock_session, SELECT .. FOR UPDATE), then claims its idempotency key. Two
// requests on one session therefore serialise on the session row, and two
// requests with one key on the key's unique index; both take the locks in
// the same order, so they cannot deadlock. A create has no session yet and
// only claims its key: concurrent retries of one create wait on the key's
// index entry until the first commits, then replay its stored response.
//
// All calls need an open SPI connection (spi::connect()).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "pg/postgres.hpp"
#include "pg/values.hpp"
#include "pg/verify_args.hpp"
#include "pg/verify_rules.hpp"

namespace corebank::pg::verify_store {

struct SessionRow {
    Uuid id;
    verify::Status stored = verify::Status::pending;
    verify::Status effective = verify::Status::pending;  // expired once expires_at has passed
    verify::Flow flow;
    bool consent_required = false;
    std::optional<bool> consent_granted;  // nullopt: no consent recorded
    std::string client_token_hash;        // 32 bytes
    bool client_token_live = false;       // not yet past client_token_expires_at
};

// Locks and reads the session, or nullopt when there is none.
std::optional<SessionRow> lock_session(const Uuid& session_id);

// Throws CBU01 "Client token is invalid or expired" unless `token_hash` is the
// session's token hash (compared in constant time) and, when `require_live`,
// the token has not expired.
void require_client_token(const SessionRow& session, const std::string& token_hash, bool require_live);

// The kinds ("selfie", "document") whose image is currently stored.
std::vector<std::string> stored_capture_kinds(const Uuid& session_id);

/*---- idempotency ----*/

struct IdempotencyKey {
    Uuid scope;                      // the API key, or the session for the hosted page
    std::string key;
    const char* operation;           // session.create, session.cancel, ...
    std::optional<Uuid> target;      // the session the operation acts on (none for create)
    std::string request_hash;        // 32 bytes
};

// Claims the key for this request. Returns true when the operation must run
// (new key, or one older than 24 hours), false when a stored response must be
// replayed. Throws CB409 when the key was used for another request, or its
// first request is still running.
bool claim(const IdempotencyKey& key);

enum class ResponseShape { session, hosted, check };

// Stores the response of the operation that claimed `key`: the session object
// (or the hosted page's state, or a single check) of `session_id` as it is now, with `status`
// and, for a create, the sealed client token.
void store_response(const IdempotencyKey& key, int status, ResponseShape shape, const Uuid& session_id,
                    const std::optional<std::string>& client_token_sealed);

// Forgets a claim whose operation did not finish (a failed submission).
void forget(const IdempotencyKey& key);

// {"replayed", "status", "body", "clientTokenSealed"} of the stored response,
// copied into the caller's memory context for returning.
Datum stored_response_for_return(const IdempotencyKey& key, bool replayed);
// The answer to a request whose key was claimed before (claim() false): the
// stored response marked replayed. Finishes the SPI connection, since the
// caller returns the answer at once.
Datum finish_with_replay(const IdempotencyKey& key);

/*---- session changes ----*/

// Appends to the session's timeline; detail is a JSON object text or none.
void append_event(const Uuid& session_id, const char* event, const std::optional<std::string>& detail_json);

// Queues the webhook event `type` for every active endpoint, once per session
// and type (a second call changes nothing).
void enqueue_webhook(const Uuid& session_id, const char* type);

// Drops the stored images of the session (it is terminal).
void purge_captures(const Uuid& session_id);

void set_cancelled(const Uuid& session_id, const char* cancelled_by, const std::string& reason);
void set_expired(const Uuid& session_id);
void set_processing(const Uuid& session_id);
void set_pending(const Uuid& session_id);
void set_completed(const Uuid& session_id, const verify::Decision& decision, const std::string& checks_json,
                   const std::string& provider);

// The terminal changes with everything that goes with them: images purged,
// timeline entry, webhook queued (the caller checked the transition).
void cancel(const Uuid& session_id, const char* cancelled_by, const std::string& reason);
void expire(const Uuid& session_id);

// The consent rules on a locked session: only while pending, only once; a
// refusal cancels the session (cancelled_by user, reason consent_declined).
void apply_consent(const SessionRow& session, const verify_args::ConsentRequest& request, const char* channel);

// Records consent (the session must have none yet).
void record_consent(const Uuid& session_id, bool granted, const char* channel, const std::string& version,
                    const std::optional<std::string>& text_sha256, const std::optional<std::string>& ip,
                    const std::optional<std::string>& user_agent);

// The hosted page's state or the session object, for returning.
Datum session_json_for_return(const Uuid& session_id, ResponseShape shape);

}  // namespace corebank::pg::verify_store
