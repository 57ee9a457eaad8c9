// json_unique_keys.cpp: see json_unique_keys.hpp.
#include "core/json_unique_keys.hpp"

namespace corebank::core {

bool JsonUniqueKeys::accept(nlohmann::json::parse_event_t event, const nlohmann::json& value) {
    using event_t = nlohmann::json::parse_event_t;
    if (event == event_t::object_start) {
        open_objects_.emplace_back();
    } else if (event == event_t::object_end) {
        if (!open_objects_.empty()) open_objects_.pop_back();
    } else if (event == event_t::key && !open_objects_.empty()) {
        const std::string& key = value.get_ref<const std::string&>();
        if (!open_objects_.back().insert(key).second) {
            repeated_ = key;
            return false;
        }
    }
    return true;
}

}  // namespace corebank::core
