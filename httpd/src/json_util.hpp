// json_util.hpp: null-safe reads from JSON the database returned.
#pragma once

#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace corebank::httpd {

inline std::string json_string(const nlohmann::json& object, const char* key, const std::string& fallback = "") {
    if (!object.is_object()) return fallback;
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : fallback;
}

inline std::int64_t json_int64(const nlohmann::json& object, const char* key, std::int64_t fallback = 0) {
    if (!object.is_object()) return fallback;
    const auto it = object.find(key);
    return it != object.end() && it->is_number_integer() ? it->get<std::int64_t>() : fallback;
}

// Parses the text of a jsonb result; an absent or broken value is an empty object.
inline nlohmann::json parse_db_json(const std::optional<std::string>& text) {
    if (!text) return nlohmann::json::object();
    auto out = nlohmann::json::parse(*text, nullptr, false);
    return out.is_discarded() ? nlohmann::json::object() : out;
}

}  // namespace corebank::httpd
