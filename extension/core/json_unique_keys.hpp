// json_unique_keys.hpp: refusing a JSON object that names a key twice, while
// nlohmann parses (its parser callback), for every parser of request bodies:
// the tier's (httpd/src/json_body.cpp) and the batch of transfers'
// (core/transfer_batch.cpp). RFC 8259 leaves the meaning of a repeated name
// open and parsers disagree on which value wins, so a request is read one
// way only.
//
// Pure C++ (no PostgreSQL headers): the tier includes it too.
#pragma once

#include <string>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

namespace corebank::core {

class JsonUniqueKeys {
public:
    // Follows one parse event; false when `value` is a key its object has
    // already named (then repeated() names it).
    bool accept(nlohmann::json::parse_event_t event, const nlohmann::json& value);
    const std::string& repeated() const { return repeated_; }

private:
    std::vector<std::unordered_set<std::string>> open_objects_;  // the keys seen, per open object
    std::string repeated_;
};

}  // namespace corebank::core
