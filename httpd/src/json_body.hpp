// json_body.hpp: reading a JSON request body field by field.
//
// Readers record every problem instead of stopping at the first, so one 400
// lists each failing field as "field: reason; field: reason" (02-identity.md).
// A field that is absent or JSON null counts as not given. Fields nobody read
// are unknown fields, and are refused.
#pragma once

#include <cstddef>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace corebank::httpd {

struct TextRule {
    bool required = false;
    std::size_t min_chars = 0;
    std::size_t max_chars = 0;     // must be set: every string has a bound
    bool trim = false;             // strip ASCII white space first
    bool blank_is_absent = false;  // "" (after trimming) counts as not given
};

// Number of Unicode code points in valid UTF-8.
std::size_t utf8_length(const std::string& text);
std::string trim_ascii(const std::string& text);

class JsonBody {
public:
    // Throws ApiError 400 BAD_REQUEST "Malformed JSON request body" unless the
    // text is one JSON object.
    explicit JsonBody(const std::string& text);

    std::optional<std::string> text(const std::string& name, const TextRule& rule);
    std::optional<bool> boolean(const std::string& name, bool required);
    // Adds a problem found by a caller's own rule.
    void problem(const std::string& name, const std::string& reason);
    bool has_problem(const std::string& name) const;
    // Throws ApiError 400 VALIDATION_ERROR listing every problem and unknown field.
    void finish() const;

private:
    nlohmann::json json_;
    std::set<std::string> read_;
    std::vector<std::pair<std::string, std::string>> problems_;
};

// Throws BAD_REQUEST when the body is neither empty nor an empty JSON object:
// for operations documented to take no body.
void expect_no_body(const std::string& text);

}  // namespace corebank::httpd
