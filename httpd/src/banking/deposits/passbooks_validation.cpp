#include "banking/deposits/passbooks_validation.hpp"

#include <limits>

#include "banking/fields.hpp"
#include "json_body.hpp"

namespace corebank::httpd::core_banking {

using nlohmann::json;

json parse_passbook_reprint(const std::string& text) {
    JsonBody body(or_empty_object(text));
    json out = json::object();
    put(out, "reason", read_reason(body, false));
    body.finish();
    return out;
}

json parse_print_confirm(const std::string& text) {
    JsonBody body(text);
    json out = json::object();
    put(out, "lastEntryId", body.integer("lastEntryId", true, 1, std::numeric_limits<std::int64_t>::max()));
    body.finish();
    return out;
}

}  // namespace corebank::httpd::core_banking
