// events_envelope.cpp: see events_envelope.hpp.
//
// Messages follow Pydantic v2 wording, so clients written against a FastAPI
// service of the same contract can branch on `type` and show `msg` as is.
#include "core/events_envelope.hpp"

#include "core/utf8.hpp"

#include <cassert>
#include <utility>

namespace corebank::core::events {

namespace {

using nlohmann::json;

const json& empty_object() {
    static const json object = json::object();
    return object;
}


std::string trim_ascii(const std::string& text) {
    const auto first = text.find_first_not_of(" \t\r\n\f\v");
    if (first == std::string::npos) return "";
    const auto last = text.find_last_not_of(" \t\r\n\f\v");
    return text.substr(first, last - first + 1);
}

bool all_digits(const std::string& text, std::size_t from, std::size_t count) {
    if (from + count > text.size()) return false;
    for (std::size_t index = from; index < from + count; ++index)
        if (text[index] < '0' || text[index] > '9') return false;
    return true;
}

int number_at(const std::string& text, std::size_t from, std::size_t count) {
    int value = 0;
    for (std::size_t index = from; index < from + count; ++index) value = value * 10 + (text[index] - '0');
    return value;
}

bool leap_year(int year) { return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0; }

// Collects problems, up to shape_problems_max.
class Problems {
public:
    void add(json loc, const char* type, std::string msg, const json& input) {
        if (list_.size() >= shape_problems_max) return;
        json echoed = input;
        if (echoed.dump().size() > echoed_input_bytes_max) echoed = nullptr;
        list_.push_back(ShapeProblem{std::move(loc), type, std::move(msg), std::move(echoed)});
    }
    bool full() const { return list_.size() >= shape_problems_max; }
    bool empty() const { return list_.empty(); }
    std::size_t size() const { return list_.size(); }
    std::vector<ShapeProblem> take() { return std::move(list_); }

private:
    std::vector<ShapeProblem> list_;
};

json child(const json& loc, const json& key) {
    json out = loc;
    out.push_back(key);
    return out;
}

// A string field: absent and null are "not given". Returns the value, or
// nullopt with a problem recorded (when required or wrongly typed).
std::optional<std::string> read_string(const json& object, const char* name, const json& loc, bool required,
                                       std::size_t min_chars, std::size_t max_chars, Problems& problems) {
    const auto it = object.find(name);
    if (it == object.end() || it->is_null()) {
        if (required) problems.add(child(loc, name), "missing", "Field required", object);
        return std::nullopt;
    }
    if (!it->is_string()) {
        problems.add(child(loc, name), "string_type", "Input should be a valid string", *it);
        return std::nullopt;
    }
    const std::string& value = it->get_ref<const std::string&>();
    if (value.find('\0') != std::string::npos) {
        problems.add(child(loc, name), "string_type", "Input should be a valid string without NUL (\\u0000) characters",
                     nullptr);
        return std::nullopt;
    }
    const std::size_t length = utf8_length(value);
    if (length < min_chars) {
        problems.add(child(loc, name), "string_too_short",
                     "String should have at least " + std::to_string(min_chars) +
                         (min_chars == 1 ? " character" : " characters"),
                     *it);
        return std::nullopt;
    }
    if (length > max_chars) {
        problems.add(child(loc, name), "string_too_long",
                     "String should have at most " + std::to_string(max_chars) + " characters", *it);
        return std::nullopt;
    }
    return value;
}

// Optional identity strings: trimmed; blank counts as not given.
std::optional<std::string> read_identity_text(const json& identity, const char* name, const json& loc,
                                              std::size_t max_chars, Problems& problems) {
    std::optional<std::string> value = read_string(identity, name, loc, false, 0, max_chars, problems);
    if (!value) return std::nullopt;
    std::string trimmed = trim_ascii(*value);
    if (trimmed.empty()) return std::nullopt;
    return trimmed;
}

// No NUL characters in any string or key (PostgreSQL text and jsonb cannot
// hold them), and bounded nesting. Iterative: depth is what it checks.
void check_values(const json& value, const json& loc, Problems& problems) {
    struct Pending {
        const json* value;
        std::size_t depth;
    };
    std::vector<Pending> stack{{&value, 0}};
    bool nul_reported = false;
    while (!stack.empty()) {
        const Pending current = stack.back();
        stack.pop_back();
        if (current.value->is_string()) {
            if (!nul_reported && current.value->get_ref<const std::string&>().find('\0') != std::string::npos) {
                problems.add(loc, "string_type", "Input should be a valid string without NUL (\\u0000) characters",
                             nullptr);
                nul_reported = true;
            }
            continue;
        }
        if (!current.value->is_structured()) continue;
        if (current.depth >= payload_depth_max) {
            problems.add(loc, "value_error",
                         "Value error, nesting deeper than " + std::to_string(payload_depth_max) + " levels",
                         nullptr);
            return;
        }
        if (current.value->is_object()) {
            for (const auto& item : current.value->items()) {
                if (!nul_reported && item.key().find('\0') != std::string::npos) {
                    problems.add(loc, "string_type",
                                 "Input should be a valid string without NUL (\\u0000) characters", nullptr);
                    nul_reported = true;
                }
                stack.push_back({&item.value(), current.depth + 1});
            }
        } else {
            for (const json& element : *current.value) stack.push_back({&element, current.depth + 1});
        }
    }
}

void refuse_extra_fields(const json& object, const json& loc, std::initializer_list<const char*> allowed,
                         Problems& problems) {
    for (const auto& item : object.items()) {
        bool known = false;
        for (const char* name : allowed) known = known || item.key() == name;
        if (!known) {
            const std::string key = item.key().size() > 64 ? item.key().substr(0, 64) : item.key();
            problems.add(child(loc, key), "extra_forbidden", "Extra inputs are not permitted", item.value());
        }
    }
}

IdentityBlock read_identity(const json& identity, const json& loc, Problems& problems) {
    IdentityBlock block;
    refuse_extra_fields(identity, loc,
                        {"platform", "userId", "zbIdSubject", "phone", "email", "nationalId", "sessionId",
                         "displayName", "isGuest"},
                        problems);
    block.platform = read_string(identity, "platform", loc, true, 1, platform_length_max, problems).value_or("");
    block.user_id = read_identity_text(identity, "userId", loc, user_id_length_max, problems);
    block.zbid_subject = read_identity_text(identity, "zbIdSubject", loc, zbid_subject_length_max, problems);
    block.phone = read_identity_text(identity, "phone", loc, phone_length_max, problems);
    block.email = read_identity_text(identity, "email", loc, email_length_max, problems);
    block.national_id = read_identity_text(identity, "nationalId", loc, national_id_length_max, problems);
    block.session_id = read_identity_text(identity, "sessionId", loc, session_id_length_max, problems);
    block.display_name = read_identity_text(identity, "displayName", loc, display_name_length_max, problems);
    const auto guest = identity.find("isGuest");
    if (guest != identity.end() && !guest->is_null()) {
        if (guest->is_boolean()) block.is_guest = guest->get<bool>();
        else problems.add(child(loc, "isGuest"), "bool_type", "Input should be a valid boolean", *guest);
    }
    return block;
}

std::int32_t read_schema_version(const json& envelope, const json& loc, Problems& problems) {
    const auto it = envelope.find("schemaVersion");
    if (it == envelope.end() || it->is_null()) return 1;
    const json field_loc = child(loc, "schemaVersion");
    if (!it->is_number_integer()) {
        problems.add(field_loc, "int_type", "Input should be a valid integer", *it);
        return 1;
    }
    if (it->is_number_unsigned() ? it->get<std::uint64_t>() > static_cast<std::uint64_t>(schema_version_max)
                                 : it->get<std::int64_t>() > schema_version_max) {
        problems.add(field_loc, "less_than_equal",
                     "Input should be less than or equal to " + std::to_string(schema_version_max), *it);
        return 1;
    }
    // nlohmann keeps non-negative integers unsigned: 0 is one of them.
    if (it->get<std::int64_t>() < schema_version_min) {
        problems.add(field_loc, "greater_than_equal",
                     "Input should be greater than or equal to " + std::to_string(schema_version_min), *it);
        return 1;
    }
    return static_cast<std::int32_t>(it->get<std::int64_t>());
}

std::optional<Envelope> read_envelope(const json& element, const json& loc, Problems& problems) {
    if (!element.is_object()) {
        problems.add(loc, "dict_type", "Input should be a valid dictionary", element);
        return std::nullopt;
    }
    const std::size_t problems_before = problems.size();
    Envelope envelope;
    refuse_extra_fields(element, loc, {"eventId", "type", "schemaVersion", "occurredAt", "identity", "payload"},
                        problems);
    envelope.event_id = read_string(element, "eventId", loc, true, 1, event_id_length_max, problems).value_or("");
    envelope.type = read_string(element, "type", loc, true, 1, type_length_max, problems).value_or("");
    envelope.schema_version = read_schema_version(element, loc, problems);
    // Any string that could ever be a timestamp is far shorter than 64.
    const auto occurred_at = read_string(element, "occurredAt", loc, false, 0, 64, problems);
    if (occurred_at) {
        if (occurred_at_valid(*occurred_at)) {
            envelope.occurred_at = *occurred_at;
        } else {
            problems.add(child(loc, "occurredAt"), "datetime_format",
                         "Input should be an ISO 8601 UTC datetime ending in Z, e.g. 2026-11-21T10:00:00Z",
                         *occurred_at);
        }
    }
    const auto identity = element.find("identity");
    if (identity == element.end() || identity->is_null()) {
        problems.add(child(loc, "identity"), "missing", "Field required", element);
    } else if (!identity->is_object()) {
        problems.add(child(loc, "identity"), "dict_type", "Input should be a valid dictionary", *identity);
    } else {
        envelope.identity = read_identity(*identity, child(loc, "identity"), problems);
    }
    const auto payload = element.find("payload");
    envelope.payload = &empty_object();
    if (payload != element.end() && !payload->is_null()) {
        if (payload->is_object()) {
            envelope.payload = &*payload;
            check_values(*payload, child(loc, "payload"), problems);
        } else {
            problems.add(child(loc, "payload"), "dict_type", "Input should be a valid dictionary", *payload);
        }
    }
    if (problems.size() != problems_before) return std::nullopt;
    return envelope;
}

Batch read_events_at(const json& events, const json& loc) {
    Batch batch;
    Problems problems;
    if (!events.is_array()) {
        problems.add(loc, "list_type", "Input should be a valid list", events);
        batch.problems = problems.take();
        return batch;
    }
    if (events.size() < batch_events_min) {
        problems.add(loc, "too_short", "List should have at least 1 item after validation, not 0", events);
    } else if (events.size() > batch_events_max) {
        problems.add(loc, "too_long",
                     "List should have at most " + std::to_string(batch_events_max) +
                         " items after validation, not " + std::to_string(events.size()),
                     nullptr);
    }
    if (!problems.empty()) {
        batch.problems = problems.take();
        return batch;
    }
    batch.envelopes.reserve(events.size());
    for (std::size_t index = 0; index < events.size() && !problems.full(); ++index) {
        std::optional<Envelope> envelope = read_envelope(events[index], child(loc, index), problems);
        if (envelope) batch.envelopes.push_back(std::move(*envelope));
    }
    batch.problems = problems.take();
    if (!batch.problems.empty()) batch.envelopes.clear();
    assert(batch.problems.empty() == (batch.envelopes.size() == events.size()));
    return batch;
}

}  // namespace

bool occurred_at_valid(const std::string& text) {
    // 2026-11-21T10:00:00Z is the shortest form (20 characters).
    if (text.size() < 20 || text.back() != 'Z') return false;
    if (!all_digits(text, 0, 4) || text[4] != '-' || !all_digits(text, 5, 2) || text[7] != '-' ||
        !all_digits(text, 8, 2) || text[10] != 'T' || !all_digits(text, 11, 2) || text[13] != ':' ||
        !all_digits(text, 14, 2) || text[16] != ':' || !all_digits(text, 17, 2))
        return false;
    const std::size_t rest = text.size() - 19;  // ".fraction" + "Z", or just "Z"
    if (rest > 1) {
        const std::size_t fraction_digits = rest - 2;
        if (text[19] != '.' || fraction_digits < 1 || fraction_digits > 9 || !all_digits(text, 20, fraction_digits))
            return false;
    }
    const int year = number_at(text, 0, 4);
    const int month = number_at(text, 5, 2);
    const int day = number_at(text, 8, 2);
    static constexpr int days_in_month[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (year < 1 || month < 1 || month > 12 || day < 1) return false;
    if (day > days_in_month[month - 1] + (month == 2 && leap_year(year) ? 1 : 0)) return false;
    return number_at(text, 11, 2) <= 23 && number_at(text, 14, 2) <= 59 && number_at(text, 17, 2) <= 59;
}

Batch read_request_body(const json& body) {
    if (!body.is_object()) {
        Batch batch;
        Problems problems;
        problems.add(json::array(), "dict_type", "Input should be a valid dictionary", body);
        batch.problems = problems.take();
        return batch;
    }
    Problems extra;
    refuse_extra_fields(body, json::array(), {"events"}, extra);
    const auto events = body.find("events");
    Batch batch;
    if (events == body.end() || events->is_null()) {
        extra.add(json::array({"events"}), "missing", "Field required", body);
    } else {
        batch = read_events_at(*events, json::array({"events"}));
    }
    if (!extra.empty()) {
        std::vector<ShapeProblem> problems = extra.take();
        for (ShapeProblem& problem : batch.problems)
            if (problems.size() < shape_problems_max) problems.push_back(std::move(problem));
        batch.problems = std::move(problems);
        batch.envelopes.clear();
    }
    return batch;
}

Batch read_events(const json& events) { return read_events_at(events, json::array({"events"})); }

std::string describe(const ShapeProblem& problem) {
    std::string path;
    for (const json& part : problem.loc) {
        if (part.is_number_unsigned()) {
            path += "[" + std::to_string(part.get<std::size_t>()) + "]";
        } else if (part.is_string()) {
            path += (path.empty() ? "" : ".") + part.get<std::string>();
        }
    }
    return (path.empty() ? std::string("body") : path) + ": " + problem.msg;
}

}  // namespace corebank::core::events
