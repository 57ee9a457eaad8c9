// json_body.hpp: reading a JSON request body field by field.
//
// Readers record every problem instead of stopping at the first, so one 400
// lists each failing field as "field: reason; field: reason" (02-identity.md).
// A field that is absent or JSON null counts as not given. Fields nobody read
// are unknown fields, and are refused.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/utf8.hpp"

namespace corebank::httpd {

struct TextRule {
    bool required = false;
    std::size_t min_chars = 0;
    std::size_t max_chars = 0;     // must be set: every string has a bound
    bool trim = false;             // strip ASCII white space first
    bool blank_is_absent = false;  // "" (after trimming) counts as not given
};

// Number of Unicode code points in valid UTF-8 (core/utf8.hpp).
using core::utf8_length;
std::string trim_ascii(const std::string& text);

// Parses a request body. A text that is not JSON, or in which one object
// names a key twice, gives a discarded value (with allow_exceptions, bad
// syntax throws nlohmann's parse_error instead, which says where). RFC 8259
// leaves the meaning of a repeated name open and parsers disagree on which
// one wins, so such a body is refused rather than read one way here and
// another way by whatever else reads it. duplicate_key (optional) gets the
// repeated name.
nlohmann::json parse_request_json(const std::string& text, bool allow_exceptions = false,
                                  std::string* duplicate_key = nullptr);

class JsonBody {
public:
    // Throws ApiError 400 BAD_REQUEST "Malformed JSON request body" unless the
    // text is one JSON object.
    explicit JsonBody(const std::string& text);
    // A nested object, e.g. entries[2]; problems are reported as "<path>.<field>".
    JsonBody(nlohmann::json object, std::string path);

    std::optional<std::string> text(const std::string& name, const TextRule& rule);
    std::optional<bool> boolean(const std::string& name, bool required);
    std::optional<std::int64_t> integer(const std::string& name, bool required, std::int64_t min, std::int64_t max);
    // An array of 'min_items'..'max_items' elements (not inspected).
    std::optional<nlohmann::json> array(const std::string& name, bool required, std::size_t min_items,
                                        std::size_t max_items);
    // A text field that must be one of `allowed`.
    std::optional<std::string> one_of(const std::string& name, bool required, const std::vector<std::string>& allowed);
    const std::string& path() const { return path_; }
    // Problems of a nested body join this one's.
    void absorb(const JsonBody& nested);
    // Adds a problem found by a caller's own rule.
    void problem(const std::string& name, const std::string& reason);
    bool has_problem(const std::string& name) const;
    // Throws ApiError 400 VALIDATION_ERROR listing every problem and unknown field.
    void finish() const;

private:
    std::string qualified(const std::string& name) const { return path_.empty() ? name : path_ + "." + name; }

    nlohmann::json json_;
    std::string path_;
    std::set<std::string> read_;
    std::vector<std::pair<std::string, std::string>> problems_;
};

// Throws BAD_REQUEST when the body is neither empty nor an empty JSON object:
// for operations documented to take no body.
void expect_no_body(const std::string& text);

}  // namespace corebank::httpd
