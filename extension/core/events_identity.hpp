// events_identity.hpp: identifiers of an identity block and the resolution
// rules of the identity graph (docs/events.md, "Identity resolution";
// docs/design/events.md, "Resolution and merge rules").
//
// Identifier kinds, strongest first (the priority order of resolution):
//   user:<platform>  userId on that platform, verbatim (trimmed)
//   zbid             zbIdSubject; a UUID is lower-cased
//   phone            E.164, home-country aware (core/phone_e164.hpp); a value
//                    that is not a phone number is no identifier
//   email            trimmed, ASCII lower case
//   national_id      upper case, without spaces, '-' and '/'
//   session          sessionId, verbatim (trimmed)
// The resolution plan is a pure function of the block's identifiers and of
// who owns each one now, so the same inputs always resolve the same way.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/events_envelope.hpp"

namespace corebank::core::events {

struct Identifier {
    std::string kind;
    std::string value;
    bool operator==(const Identifier& other) const { return kind == other.kind && value == other.value; }
};

// At most one per kind, strongest first; blank or unusable values skipped.
std::vector<Identifier> identifiers_of(const IdentityBlock& block, std::string_view home_calling_code);

// True for kinds that tell who the person is (user:*, zbid): a customer
// named by one is not a guest.
bool identifies_person(const Identifier& identifier);

std::string normalize_email(std::string_view email);
std::string normalize_national_id(std::string_view national_id);
std::string normalize_zbid_subject(std::string_view subject);

// The claimedType names of identity.claimed, in documentation order.
const std::vector<std::string>& claimable_types();

// The identifier an identity.claimed event claims: claimed_type is one of
// claimable_types(); userId claims are per the event's platform. nullopt
// when the value does not normalise (a phone that is not a phone number, a
// blank value).
std::optional<Identifier> claimed_identifier(std::string_view claimed_type, std::string_view claimed_value,
                                             std::string_view platform, std::string_view home_calling_code);

// API name of a stored identifier kind: userId, zbIdSubject, phone, email,
// nationalId, sessionId ("" for an unknown kind).
std::string api_type_of_kind(std::string_view kind);

/*---- resolution ----*/

// owners[i] is the customer that owns identifiers[i] now (its canonical id,
// as opaque bytes), or nullopt when nobody does.
struct ResolutionPlan {
    // Index of the identifier whose owner is the event's customer; nullopt
    // means a new customer (or none at all when there are no identifiers).
    std::optional<std::size_t> named_by;
    // Identifiers nobody owns: attached to the event's customer.
    std::vector<std::size_t> attach;
    // Session identifiers owned by another customer, which follow the
    // signed-in customer the event resolved to.
    std::vector<std::size_t> move;
};

ResolutionPlan plan_resolution(const std::vector<Identifier>& identifiers,
                               const std::vector<std::optional<std::string>>& owners);

struct CustomerFacts {
    std::optional<std::string> display_name;
    bool is_guest = true;
};

// Facts of a customer created by this block.
CustomerFacts new_customer_facts(const IdentityBlock& block, const std::vector<Identifier>& identifiers);

// The changes this block makes to an existing customer: a new non-blank
// displayName replaces the stored one; a guest stops being one when the
// block names a person (userId, zbIdSubject) or says isGuest false. A
// customer never becomes a guest again.
struct CustomerChange {
    std::optional<std::string> display_name;
    bool stop_being_guest = false;
    bool any() const { return display_name.has_value() || stop_being_guest; }
};
CustomerChange customer_change(const CustomerFacts& current, const IdentityBlock& block,
                               const std::vector<Identifier>& identifiers);

// "cus_" + 20 base32 characters (a-z, 2-7) of the first 13 bytes of
// `random_bytes` (100 bits); the customer's public id.
std::string public_customer_id(std::string_view random_bytes);
inline constexpr std::size_t public_customer_id_random_bytes = 13;
bool public_customer_id_valid(std::string_view text);

}  // namespace corebank::core::events
