// events_envelope.hpp: the shape of an event batch (03-verification-and-
// events.md part B, "Event envelope" and "Identity block"; docs/events.md).
//
// One implementation serves both sides of the wire:
//   - the tier turns every ShapeProblem into a 422 detail item
//     {type, loc, msg, input} (loc prefixed with "body"), Pydantic style;
//   - the extension's corebank.events_ingest re-checks the same shape (it is
//     the truth, and anyone granted EXECUTE may call it) and refuses a batch
//     with a problem as SQLSTATE CBV00 naming the first one.
// A shape problem anywhere rejects the whole request; per-event business
// validation (type registry, platforms, payload fields) lives in
// events_registry.hpp and only marks that one event invalid.
//
// Pure C++ (nlohmann::json); no PostgreSQL headers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace corebank::core::events {

/*---- limits ----*/
inline constexpr std::size_t batch_events_min = 1;
inline constexpr std::size_t batch_events_max = 500;
inline constexpr std::size_t event_id_length_max = 120;
inline constexpr std::size_t type_length_max = 60;
inline constexpr std::size_t platform_length_max = 60;
inline constexpr std::size_t user_id_length_max = 200;
inline constexpr std::size_t zbid_subject_length_max = 100;
inline constexpr std::size_t phone_length_max = 64;
inline constexpr std::size_t email_length_max = 320;
inline constexpr std::size_t national_id_length_max = 64;
inline constexpr std::size_t session_id_length_max = 200;
inline constexpr std::size_t display_name_length_max = 200;
inline constexpr std::int64_t schema_version_min = 1;
inline constexpr std::int64_t schema_version_max = 2147483647;
// Nesting of payload and identity values (objects and arrays).
inline constexpr std::size_t payload_depth_max = 32;
// A refused request lists at most this many problems.
inline constexpr std::size_t shape_problems_max = 100;
// An echoed `input` larger than this (serialised) is replaced by null.
inline constexpr std::size_t echoed_input_bytes_max = 1024;

// One shape problem, Pydantic v2 style. loc is relative to the request body
// (e.g. ["events", 3, "identity", "platform"]); the tier prefixes "body".
struct ShapeProblem {
    nlohmann::json loc;
    std::string type;  // missing, string_type, int_type, bool_type, dict_type, list_type, ...
    std::string msg;
    nlohmann::json input;
};

struct IdentityBlock {
    std::string platform;
    std::optional<std::string> user_id;
    std::optional<std::string> zbid_subject;
    std::optional<std::string> phone;
    std::optional<std::string> email;
    std::optional<std::string> national_id;
    std::optional<std::string> session_id;
    std::optional<std::string> display_name;
    std::optional<bool> is_guest;
};

struct Envelope {
    std::string event_id;
    std::string type;
    std::int32_t schema_version = 1;
    // As sent, checked by occurred_at_valid; empty when the envelope has none
    // (absent or null): the spec's envelope table does not mark occurredAt
    // required, so the event is stored with its receive time (docs/events.md).
    std::string occurred_at;
    IdentityBlock identity;
    // Points into the parsed batch, which must outlive the Envelope; an
    // absent or null payload points at an empty object.
    const nlohmann::json* payload = nullptr;
};

struct Batch {
    std::vector<Envelope> envelopes;      // filled only when problems is empty
    std::vector<ShapeProblem> problems;
};

// ISO 8601 UTC with a trailing Z: YYYY-MM-DDTHH:MM:SS[.fraction]Z, a real
// calendar day in years 0001..9999, a fraction of 1 to 9 digits.
bool occurred_at_valid(const std::string& text);

// Checks the request body {"events": [...]} (nothing else allowed).
Batch read_request_body(const nlohmann::json& body);

// Checks the events array alone (what corebank.events_ingest receives);
// problem locations still start with "events".
Batch read_events(const nlohmann::json& events);

// "events[3].identity.platform: Field required": the CBV00 message.
std::string describe(const ShapeProblem& problem);

}  // namespace corebank::core::events
