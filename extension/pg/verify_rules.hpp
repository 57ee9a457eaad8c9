// verify_rules.hpp: the rules of a verification session, as pure C++.
//
// No PostgreSQL header here and no database call: the SQL functions in
// entry/verify_*.cpp ask these functions what is allowed and then change the
// rows; the unit tests (tests/unit/verify_rules_test.cpp) check the rules
// without a database. docs/verification.md describes them for callers.
//
// Status machine (the only transitions there are):
//
//     pending ──submit──▶ processing ──finish──▶ completed
//        ▲                   │  │
//        └──abort / revert───┘  │
//     pending, processing ──cancel (caller) / consent declined (user)──▶ cancelled
//     pending, processing ──expires_at passed (maintenance)──▶ expired
//
// completed, cancelled and expired are terminal: nothing leaves them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace corebank::verify {

/*---- limits ----*/

inline constexpr std::size_t idempotency_key_length_max = 255;
inline constexpr std::size_t reference_length_max = 200;
inline constexpr std::size_t redirect_url_length_max = 2048;
inline constexpr std::size_t cancellation_reason_length_max = 500;
inline constexpr std::size_t consent_version_length_max = 50;
inline constexpr std::size_t subject_sealed_bytes_min = 29;  // 12-byte nonce + 16-byte tag + 1
inline constexpr std::size_t subject_sealed_bytes_max = 4096;
inline constexpr std::size_t token_sealed_bytes_max = 1024;
inline constexpr std::size_t image_bytes_max = 16u * 1024u * 1024u;
inline constexpr std::size_t sha256_bytes = 32;
inline constexpr int captures_per_kind_max = 10;
inline constexpr int lifetime_s_min = 300;
inline constexpr int lifetime_s_max = 7 * 24 * 3600;
inline constexpr int client_token_ttl_s_min = 60;
inline constexpr int client_token_ttl_s_max = 24 * 3600;
inline constexpr int stale_processing_s_min = 10;
inline constexpr int stale_processing_s_max = 3600;
inline constexpr int maintenance_batch_max = 500;
inline constexpr std::size_t check_reasons_max = 16;
inline constexpr std::size_t check_measurements_bytes_max = 2048;
inline constexpr std::size_t provider_error_length_max = 200;

static_assert(client_token_ttl_s_min < lifetime_s_min, "a token must fit in the shortest session");

/*---- status ----*/

enum class Status { pending, processing, completed, cancelled, expired };

std::optional<Status> parse_status(std::string_view text);
const char* status_name(Status status);
bool is_terminal(Status status);

// The status as callers see it: a pending or processing session whose expiry
// has passed is expired, whether or not the maintenance pass stored it yet.
Status effective_status(Status stored, bool expiry_passed);

enum class Transition {
    cancel,   // the caller's POST /cancel, or the user declining consent
    consent,  // recording the user's consent
    capture,  // storing a selfie or document image
    submit,   // pending -> processing: the checks start
    finish,   // processing -> completed: the checks' results are stored
    abort,    // processing -> pending: the provider failed, the user may retry
    expire,   // pending/processing -> expired (maintenance)
    revert,   // processing -> pending: a submission nobody finished (maintenance)
};

// Whether `transition` may start from a session whose effective status is `from`.
bool allowed(Status from, Transition transition);

// The message of the 409 refusing `transition` from `from` (not allowed).
std::string refusal_message(Status from, Transition transition);

/*---- flow ----*/

struct Flow {
    bool liveness = false;
    bool facematch = false;
    bool document = false;
};

// "liveness", "facematch", "document" joined by '+', each at most once, in any
// order; nullopt for anything else (empty parts, unknown checks, duplicates).
std::optional<Flow> parse_flow(std::string_view text);
// The canonical name: the checks in the order liveness, facematch, document.
std::string flow_name(const Flow& flow);
// The check types the flow runs, in canonical order.
std::vector<std::string> check_types(const Flow& flow);

// A selfie is captured for liveness and face match; a document image for the
// document check and for face match (the document's portrait is the face the
// selfie is compared with).
bool needs_selfie(const Flow& flow);
bool needs_document(const Flow& flow);
// Consent is required before any capture of a flow that processes a face
// biometrically (liveness, face match).
bool needs_consent(const Flow& flow);
// Whether the flow captures this kind ("selfie" or "document").
bool captures_kind(const Flow& flow, std::string_view kind);

/*---- decision ----*/

enum class CheckStatus { pass, fail, review };

std::optional<CheckStatus> parse_check_status(std::string_view text);
const char* check_status_name(CheckStatus status);

struct CheckOutcome {
    std::string type;  // liveness, facematch, document
    CheckStatus status;
};

struct Decision {
    std::string decision;              // approved, declined, review
    std::vector<std::string> reasons;  // "<type>_<status>" per check, in the order given
};

// Any failed check declines; otherwise any check in review makes the session
// a review (a human case, never a pass); only all passed checks approve.
// An empty list is a programming error (throws std::invalid_argument).
Decision decide(const std::vector<CheckOutcome>& outcomes);

/*---- idempotency ----*/

enum class Replay { fresh, replay, conflict, in_progress };

// What a write under an idempotency key does, given the stored key:
//   claimed: the key was new (or older than 24 hours) and is now ours;
//   otherwise the stored key's operation, target and request hash are
//   compared with this request's, and a stored response is replayed.
Replay idempotency_outcome(bool claimed, bool same_operation, bool same_session, bool same_request_hash,
                           bool has_response);

// 1 to 255 printable ASCII characters, no space (what the column accepts).
bool idempotency_key_valid(std::string_view key);

// 1 to 50 of A-Z a-z 0-9 . _ : -
bool consent_version_valid(std::string_view version);

// An absolute http(s) URL without white space or control characters.
bool http_url_valid(std::string_view url, std::size_t length_max);

}  // namespace corebank::verify
