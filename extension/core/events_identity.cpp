// events_identity.cpp: see events_identity.hpp.
#include "core/events_identity.hpp"

#include <cassert>

#include "core/phone_e164.hpp"

namespace corebank::core::events {

namespace {

constexpr std::string_view user_kind_prefix = "user:";

char ascii_lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
char ascii_upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

std::string trim_ascii(std::string_view text) {
    const auto first = text.find_first_not_of(" \t\r\n\f\v");
    if (first == std::string_view::npos) return "";
    const auto last = text.find_last_not_of(" \t\r\n\f\v");
    return std::string(text.substr(first, last - first + 1));
}

bool is_hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

bool uuid_shaped(std::string_view text) {
    if (text.size() != 36) return false;
    for (std::size_t index = 0; index < text.size(); ++index) {
        const bool dash = index == 8 || index == 13 || index == 18 || index == 23;
        if (dash ? text[index] != '-' : !is_hex(text[index])) return false;
    }
    return true;
}

void add_if_present(std::vector<Identifier>& out, std::string kind, std::optional<std::string> value) {
    if (value && !value->empty()) out.push_back(Identifier{std::move(kind), std::move(*value)});
}

}  // namespace

std::string normalize_email(std::string_view email) {
    std::string out = trim_ascii(email);
    for (char& c : out) c = ascii_lower(c);
    return out;
}

std::string normalize_national_id(std::string_view national_id) {
    std::string out;
    for (const char c : national_id)
        if (c != ' ' && c != '\t' && c != '-' && c != '/') out.push_back(ascii_upper(c));
    return out;
}

std::string normalize_zbid_subject(std::string_view subject) {
    std::string out = trim_ascii(subject);
    if (uuid_shaped(out))
        for (char& c : out) c = ascii_lower(c);
    return out;
}

std::vector<Identifier> identifiers_of(const IdentityBlock& block, std::string_view home_calling_code) {
    std::vector<Identifier> out;
    if (block.user_id) add_if_present(out, std::string(user_kind_prefix) + block.platform, trim_ascii(*block.user_id));
    if (block.zbid_subject) add_if_present(out, "zbid", normalize_zbid_subject(*block.zbid_subject));
    if (block.phone) add_if_present(out, "phone", phone_to_e164(*block.phone, home_calling_code));
    if (block.email) add_if_present(out, "email", normalize_email(*block.email));
    if (block.national_id) add_if_present(out, "national_id", normalize_national_id(*block.national_id));
    if (block.session_id) add_if_present(out, "session", trim_ascii(*block.session_id));
    assert(out.size() <= 6);
    return out;
}

bool identifies_person(const Identifier& identifier) {
    return identifier.kind == "zbid" || identifier.kind.compare(0, user_kind_prefix.size(), user_kind_prefix) == 0;
}

const std::vector<std::string>& claimable_types() {
    static const std::vector<std::string> types{"userId", "zbIdSubject", "phone", "email", "nationalId"};
    return types;
}

std::optional<Identifier> claimed_identifier(std::string_view claimed_type, std::string_view claimed_value,
                                             std::string_view platform, std::string_view home_calling_code) {
    std::optional<Identifier> out;
    if (claimed_type == "userId") {
        out = Identifier{std::string(user_kind_prefix) + std::string(platform), trim_ascii(claimed_value)};
    } else if (claimed_type == "zbIdSubject") {
        out = Identifier{"zbid", normalize_zbid_subject(claimed_value)};
    } else if (claimed_type == "phone") {
        std::optional<std::string> phone = phone_to_e164(claimed_value, home_calling_code);
        if (phone) out = Identifier{"phone", std::move(*phone)};
    } else if (claimed_type == "email") {
        out = Identifier{"email", normalize_email(claimed_value)};
    } else if (claimed_type == "nationalId") {
        out = Identifier{"national_id", normalize_national_id(claimed_value)};
    }
    if (out && out->value.empty()) out.reset();
    return out;
}

std::string api_type_of_kind(std::string_view kind) {
    if (kind.compare(0, user_kind_prefix.size(), user_kind_prefix) == 0) return "userId";
    if (kind == "zbid") return "zbIdSubject";
    if (kind == "phone") return "phone";
    if (kind == "email") return "email";
    if (kind == "national_id") return "nationalId";
    if (kind == "session") return "sessionId";
    return "";
}

ResolutionPlan plan_resolution(const std::vector<Identifier>& identifiers,
                               const std::vector<std::optional<std::string>>& owners) {
    assert(identifiers.size() == owners.size());
    ResolutionPlan plan;
    for (std::size_t index = 0; index < owners.size() && !plan.named_by; ++index)
        if (owners[index]) plan.named_by = index;

    const std::optional<std::string> customer =
        plan.named_by ? owners[*plan.named_by] : std::optional<std::string>();
    // A session follows a customer named by a stronger identifier: the
    // guest session became a signed-in one.
    const bool named_by_stronger = plan.named_by && identifiers[*plan.named_by].kind != "session";
    for (std::size_t index = 0; index < identifiers.size(); ++index) {
        if (!owners[index]) {
            plan.attach.push_back(index);
        } else if (named_by_stronger && identifiers[index].kind == "session" && owners[index] != customer) {
            plan.move.push_back(index);
        }
    }
    assert(plan.attach.size() + plan.move.size() <= identifiers.size());
    return plan;
}

CustomerFacts new_customer_facts(const IdentityBlock& block, const std::vector<Identifier>& identifiers) {
    bool names_person = false;
    for (const Identifier& identifier : identifiers) names_person = names_person || identifies_person(identifier);
    CustomerFacts facts;
    facts.display_name = block.display_name;
    facts.is_guest = block.is_guest.value_or(!names_person);
    if (names_person) facts.is_guest = false;
    return facts;
}

CustomerChange customer_change(const CustomerFacts& current, const IdentityBlock& block,
                               const std::vector<Identifier>& identifiers) {
    CustomerChange change;
    if (block.display_name && block.display_name != current.display_name) change.display_name = block.display_name;
    if (current.is_guest) {
        bool names_person = block.is_guest == false;
        for (const Identifier& identifier : identifiers) names_person = names_person || identifies_person(identifier);
        change.stop_being_guest = names_person;
    }
    return change;
}

std::string public_customer_id(std::string_view random_bytes) {
    assert(random_bytes.size() >= public_customer_id_random_bytes);
    static constexpr char alphabet[] = "abcdefghijklmnopqrstuvwxyz234567";
    std::string out = "cus_";
    unsigned buffer = 0;
    int bits = 0;
    for (std::size_t index = 0; index < public_customer_id_random_bytes; ++index) {
        buffer = (buffer << 8) | static_cast<unsigned char>(random_bytes[index]);
        bits += 8;
        while (bits >= 5 && out.size() < 24) {
            out.push_back(alphabet[(buffer >> (bits - 5)) & 31u]);
            bits -= 5;
        }
    }
    assert(out.size() == 24);
    return out;
}

bool public_customer_id_valid(std::string_view text) {
    if (text.size() != 24 || text.substr(0, 4) != "cus_") return false;
    for (const char c : text.substr(4))
        if (!((c >= 'a' && c <= 'z') || (c >= '2' && c <= '7'))) return false;
    return true;
}

}  // namespace corebank::core::events
