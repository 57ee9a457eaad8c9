// events_registry.hpp: the complete event type registry of 03-verification-
// and-events.md part B, and the per-event validation that makes one event
// `invalid` without failing its batch (docs/events.md, "Per-event validation").
//
// Order of checks, first failure wins:
//   1. type in the registry        unknown event type '<type>'
//   2. platform known and active   unknown platform '<p>' / inactive platform '<p>'
//   3. required payload fields     missing required payload field '<field>'
//      (registry order; absent, null or a blank string is missing)
//   4. money fields                invalid money field '<field>': must be a decimal string >= 0
//   5. field rules                 invalid payload field '<field>': <reason>
//      (consent status and purpose, identity.claimed type and value,
//       order.created items)
//   6. subject                     identity names no customer: <type> needs one of ...
//      (only consent.updated and identity.claimed, which act on a customer)
// Money is a JSON string of digits with an optional fraction (^[0-9]+(\.[0-9]+)?$,
// at most 64 characters); it is stored verbatim and never computed with.
//
// Pure C++; the platform registry is passed in.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/events_envelope.hpp"
#include "core/events_identity.hpp"

namespace corebank::core::events {

inline constexpr std::size_t money_length_max = 64;
inline constexpr std::size_t consent_purpose_length_max = 100;
// Registry rows, retired names included (events_configure refuses more).
inline constexpr std::size_t platforms_max = 1000;

struct EventType {
    const char* name;
    std::vector<const char*> required;  // in the specification's order
    std::vector<const char*> money;     // a subset of required
};

// The 21 types of the specification, in its order.
const std::vector<EventType>& registry();
const EventType* find_type(std::string_view name);

// Platform name -> active.
using PlatformRegistry = std::unordered_map<std::string, bool>;

// ^[0-9]+(\.[0-9]+)?$ within money_length_max characters.
bool money_valid(std::string_view text);

// Consent values of a consent.updated event.
struct Consent {
    std::string purpose;
    bool granted = false;
};

// The outcome of validating one event: the error string when invalid;
// otherwise what the identity graph needs.
struct Validation {
    std::optional<std::string> error;
    std::vector<Identifier> identifiers;  // strongest first
    std::optional<Identifier> claimed;    // identity.claimed
    std::optional<Consent> consent;       // consent.updated
};

Validation validate_event(const Envelope& envelope, const PlatformRegistry& platforms,
                          std::string_view home_calling_code);

}  // namespace corebank::core::events
