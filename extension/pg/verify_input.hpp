// verify_input.hpp: the checks the verification functions apply to their
// JSON arguments (metadata, check results). Pure C++ on nlohmann::json, no
// PostgreSQL: the tier validates the same shapes before it calls, the
// database validates again because psql users call these functions too.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "pg/verify_rules.hpp"

namespace corebank::verify {

inline constexpr std::size_t metadata_keys_max = 50;
inline constexpr std::size_t metadata_key_length_max = 40;
inline constexpr std::size_t metadata_value_length_max = 500;
inline constexpr std::size_t metadata_bytes_max = 8192;

// nullopt when `json_text` is a valid metadata object: at most 50 keys of 1
// to 40 characters, each value a string of at most 500 characters, a number,
// a boolean or null, at most 8 KiB as JSON. Otherwise "metadata: <reason>".
std::optional<std::string> metadata_problem(const std::string& json_text);

struct CheckResults {
    std::string checks_json;              // the sanitised array, stored as is
    std::vector<CheckOutcome> outcomes;   // for decide()
};

// Parses a provider's results: a JSON array with exactly one object per check
// of `flow`, in canonical order, each
//   {"type", "status": pass|fail|review, "score" (liveness, document) or
//    "similarity" (facematch): number 0..1, "reasons": [snake_case, <= 16],
//    "measurements": object of <= 2 KiB}
// and labels each with `provider`. Throws CoreError CBV00 naming the problem.
CheckResults parse_check_results(const std::string& json_text, const Flow& flow, const std::string& provider);

// ^[a-z0-9_.-]{1,40}$
bool provider_name_valid(const std::string& provider);

}  // namespace corebank::verify
