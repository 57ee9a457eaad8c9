// hot_path.cpp: the notification payloads the database's triggers send.
#include "banking/hot_path.hpp"

#include <string_view>

namespace corebank::httpd::core_banking {

namespace {

inline constexpr std::size_t payload_length_max = 200;

bool starts_with(std::string_view text, std::string_view prefix) {
    return text.size() > prefix.size() && text.substr(0, prefix.size()) == prefix;
}

}  // namespace

std::size_t HotPath::apply_event(const std::string& payload) {
    // Tags are the payloads themselves: an entry is stored with the tags of
    // its key, session, user and client (banking/auth.cpp).
    if (payload.size() <= payload_length_max) {
        if (starts_with(payload, "api_key:")) return keys.evict_tag(payload);
        if (starts_with(payload, "session:") || starts_with(payload, "user:") || starts_with(payload, "client:"))
            return staff.evict_tag(payload);
    }
    const std::size_t before = keys.size() + staff.size();
    deaf();
    listening();
    return before;
}

}  // namespace corebank::httpd::core_banking
