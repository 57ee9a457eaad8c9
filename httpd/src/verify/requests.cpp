// requests.cpp: see requests.hpp.
#include "verify/requests.hpp"

#include <set>
#include <utility>
#include <vector>

#include "api_error.hpp"
#include "json_body.hpp"
#include "pg/verify_input.hpp"
#include "pg/verify_rules.hpp"

namespace corebank::httpd::verify {

namespace {

using nlohmann::json;
namespace rules = corebank::verify;

// Collects "field: reason" problems and the fields read, like JsonBody, for
// bodies with nested objects read as JSON.
class Fields {
public:
    Fields(const json& object, std::string path) : object_(object), path_(std::move(path)) {}

    // The value when present and not null (marks the field as read).
    const json* get(const std::string& name) {
        read_.insert(name);
        const auto it = object_.find(name);
        if (it == object_.end() || it->is_null()) return nullptr;
        return &*it;
    }

    std::optional<std::string> text(const std::string& name, bool required, std::size_t max_chars) {
        const json* value = get(name);
        if (value == nullptr) {
            if (required) problem(name, "is required");
            return std::nullopt;
        }
        if (!value->is_string()) {
            problem(name, "must be a string");
            return std::nullopt;
        }
        std::string text = value->get<std::string>();
        if (text.find('\0') != std::string::npos) {
            problem(name, "must not contain NUL characters");
            return std::nullopt;
        }
        if (trim_ascii(text).empty()) {
            problem(name, required ? "is required" : "must not be blank");
            return std::nullopt;
        }
        if (utf8_length(text) > max_chars) {
            problem(name, "must be at most " + std::to_string(max_chars) + " characters");
            return std::nullopt;
        }
        return text;
    }

    std::optional<bool> boolean(const std::string& name, bool required) {
        const json* value = get(name);
        if (value == nullptr) {
            if (required) problem(name, "is required");
            return std::nullopt;
        }
        if (!value->is_boolean()) {
            problem(name, "must be true or false");
            return std::nullopt;
        }
        return value->get<bool>();
    }

    void problem(const std::string& name, const std::string& reason) {
        problems_.emplace_back(qualified(name), reason);
    }

    std::string qualified(const std::string& name) const { return path_.empty() ? name : path_ + "." + name; }

    // Unknown fields become problems; the list joins `into`.
    void finish_into(std::vector<std::pair<std::string, std::string>>& into) const {
        for (const auto& p : problems_) into.push_back(p);
        for (const auto& item : object_.items()) {
            if (read_.count(item.key()) == 0) {
                const std::string key = item.key().size() > 64 ? item.key().substr(0, 64) + "..." : item.key();
                into.emplace_back(qualified(key), "unknown field");
            }
        }
    }

private:
    const json& object_;
    std::string path_;
    std::set<std::string> read_;
    std::vector<std::pair<std::string, std::string>> problems_;
};

json parse_object(const std::string& body, bool empty_is_object) {
    if (empty_is_object && trim_ascii(body).empty()) return json::object();
    json value = parse_request_json(body);
    if (value.is_discarded() || !value.is_object()) throw bad_request("Malformed JSON request body");
    return value;
}

[[noreturn]] void throw_problems(const std::vector<std::pair<std::string, std::string>>& problems) {
    std::string message;
    for (const auto& [field, reason] : problems) message += (message.empty() ? "" : "; ") + field + ": " + reason;
    throw validation_error(message);
}

void finish(const Fields& fields, std::vector<std::pair<std::string, std::string>>& problems) {
    fields.finish_into(problems);
    if (!problems.empty()) throw_problems(problems);
}

bool digits(const std::string& text, std::size_t from, std::size_t count) {
    if (from + count > text.size()) return false;
    for (std::size_t i = from; i < from + count; ++i)
        if (text[i] < '0' || text[i] > '9') return false;
    return true;
}

// YYYY-MM-DD, a real calendar date from 1900 on.
bool date_valid(const std::string& text) {
    if (text.size() != 10 || !digits(text, 0, 4) || text[4] != '-' || !digits(text, 5, 2) || text[7] != '-' ||
        !digits(text, 8, 2)) {
        return false;
    }
    const int year = std::stoi(text.substr(0, 4));
    const int month = std::stoi(text.substr(5, 2));
    const int day = std::stoi(text.substr(8, 2));
    if (year < 1900 || month < 1 || month > 12 || day < 1) return false;
    static constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    return day <= days[month - 1] + (month == 2 && leap ? 1 : 0);
}

// 2026-11-22T10:00:00Z, with optional fraction and an offset instead of Z.
bool timestamp_valid(const std::string& text) {
    if (text.size() < 20 || text.size() > 35 || !date_valid(text.substr(0, 10)) || text[10] != 'T' ||
        !digits(text, 11, 2) || text[13] != ':' || !digits(text, 14, 2) || text[16] != ':' || !digits(text, 17, 2)) {
        return false;
    }
    std::size_t at = 19;
    if (at < text.size() && text[at] == '.') {
        std::size_t fraction = 0;
        while (at + 1 + fraction < text.size() && digits(text, at + 1 + fraction, 1)) ++fraction;
        if (fraction == 0 || fraction > 6) return false;
        at += 1 + fraction;
    }
    // In range, not just digits: the database refuses hour 25 or offset +25:00
    // and that must be a 400 here, not its error. Offsets are the real ones
    // (-14:00 to +14:00).
    const auto number = [&text](std::size_t from) { return (text[from] - '0') * 10 + (text[from + 1] - '0'); };
    if (number(11) > 23 || number(14) > 59 || number(17) > 59) return false;
    const std::string zone = text.substr(at);
    if (zone == "Z") return true;
    return zone.size() == 6 && (zone[0] == '+' || zone[0] == '-') && digits(zone, 1, 2) && zone[3] == ':' &&
           digits(zone, 4, 2) && (zone[1] - '0') * 10 + (zone[2] - '0') <= 14 && (zone[4] - '0') * 10 + (zone[5] - '0') <= 59;
}

bool id_number_valid(const std::string& text) {
    bool has_alnum = false;
    for (const char c : text) {
        const bool alnum = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
        has_alnum = has_alnum || alnum;
        if (!alnum && c != ' ' && c != '-' && c != '.' && c != '/') return false;
    }
    return has_alnum;
}

// The subject: the person's details, all optional, each bounded. Only the
// tier ever reads them again (they are sealed before storage).
json parse_subject(const json& value, std::vector<std::pair<std::string, std::string>>& problems,
                   std::optional<std::string>& id_number) {
    if (!value.is_object()) {
        problems.emplace_back("subject", "must be an object");
        return json::object();
    }
    Fields fields(value, "subject");
    json out = json::object();
    const auto put = [&out](const char* name, const std::optional<std::string>& v) {
        if (v) out[name] = *v;
    };
    put("name", fields.text("name", false, subject_name_length_max));
    put("firstName", fields.text("firstName", false, subject_part_length_max));
    put("lastName", fields.text("lastName", false, subject_part_length_max));
    if (auto id = fields.text("idNumber", false, id_number_length_max)) {
        if (!id_number_valid(*id)) fields.problem("idNumber", "must be letters and digits (spaces, - . / allowed)");
        else {
            out["idNumber"] = *id;
            id_number = *id;
        }
    }
    if (auto dob = fields.text("dateOfBirth", false, 10)) {
        if (!date_valid(*dob)) fields.problem("dateOfBirth", "must be a date YYYY-MM-DD");
        else out["dateOfBirth"] = *dob;
    }
    if (auto country = fields.text("country", false, 2)) {
        if (country->size() != 2 || !std::isupper(static_cast<unsigned char>((*country)[0])) ||
            !std::isupper(static_cast<unsigned char>((*country)[1]))) {
            fields.problem("country", "must be an ISO 3166-1 alpha-2 code such as ZW");
        } else {
            out["country"] = *country;
        }
    }
    if (auto email = fields.text("email", false, 254)) {
        if (email->find('@') == std::string::npos) fields.problem("email", "must be an email address");
        else out["email"] = *email;
    }
    put("phone", fields.text("phone", false, 32));
    fields.finish_into(problems);
    return out;
}

}  // namespace

void check_json_body_size(const std::string& body) {
    if (body.size() > json_body_bytes_max) {
        throw ApiError{413, "PAYLOAD_TOO_LARGE",
                       "Request body exceeds " + std::to_string(json_body_bytes_max) + " bytes"};
    }
}

CreateSessionRequest parse_create_session(const std::string& body) {
    check_json_body_size(body);
    const json object = parse_object(body, false);
    std::vector<std::pair<std::string, std::string>> problems;
    Fields fields(object, "");
    CreateSessionRequest out;
    if (const auto flow = fields.text("flow", true, 100)) {
        const auto parsed = rules::parse_flow(*flow);
        if (!parsed) {
            fields.problem("flow", "must be liveness, facematch or document, or several joined by '+' "
                                   "(for example liveness+facematch+document)");
        } else {
            out.flow = rules::flow_name(*parsed);
        }
    }
    out.reference = fields.text("reference", false, rules::reference_length_max);
    if (const json* subject = fields.get("subject")) {
        json parsed = parse_subject(*subject, problems, out.id_number);
        if (!parsed.empty()) out.subject = std::move(parsed);
    }
    if (auto url = fields.text("redirectUrl", false, rules::redirect_url_length_max)) {
        if (!rules::http_url_valid(*url, rules::redirect_url_length_max)) {
            fields.problem("redirectUrl", "must be an absolute http or https URL");
        } else {
            out.redirect_url = std::move(url);
        }
    }
    if (const json* metadata = fields.get("metadata")) {
        if (const auto problem = rules::metadata_problem(metadata->dump())) {
            const auto colon = problem->find(": ");
            problems.emplace_back(problem->substr(0, colon), problem->substr(colon + 2));
        } else {
            out.metadata = *metadata;
        }
    }
    finish(fields, problems);
    out.canonical = object.dump(-1, ' ', false, json::error_handler_t::strict);
    return out;
}

namespace {

// A body of plain top-level fields: read_fields fills `out` from them, unknown
// fields and problems become one 422, and the body as read is its canonical form.
template <class Request, class ReadFields>
Request parse_flat_request(const std::string& body, bool empty_is_object, ReadFields read_fields) {
    check_json_body_size(body);
    const json object = parse_object(body, empty_is_object);
    std::vector<std::pair<std::string, std::string>> problems;
    Fields fields(object, "");
    Request out;
    read_fields(fields, out);
    finish(fields, problems);
    out.canonical = object.dump();
    return out;
}

void read_granted(Fields& fields, ConsentRequest& out) {
    out.granted = fields.boolean("granted", true).value_or(false);
}

}  // namespace

CancelSessionRequest parse_cancel_session(const std::string& body) {
    return parse_flat_request<CancelSessionRequest>(body, true, [](Fields& fields, CancelSessionRequest& out) {
        out.reason = fields.text("reason", false, rules::cancellation_reason_length_max);
    });
}

ConsentRequest parse_api_consent(const std::string& body) {
    return parse_flat_request<ConsentRequest>(body, false, [](Fields& fields, ConsentRequest& out) {
        read_granted(fields, out);
        if (auto version = fields.text("version", true, rules::consent_version_length_max)) {
            if (!rules::consent_version_valid(*version)) fields.problem("version", "must be 1 to 50 of A-Z a-z 0-9 . _ : -");
            else out.version = *version;
        }
        out.text = fields.text("text", false, consent_text_length_max);
        out.ip = fields.text("ip", false, 64);
        out.user_agent = fields.text("userAgent", false, 512);
    });
}

ConsentRequest parse_hosted_consent(const std::string& body) {
    return parse_flat_request<ConsentRequest>(body, false, read_granted);
}

SearchSessionsRequest parse_search_sessions(const std::string& body) {
    check_json_body_size(body);
    const json object = parse_object(body, true);
    std::vector<std::pair<std::string, std::string>> problems;
    Fields fields(object, "");
    SearchSessionsRequest out;
    if (auto id = fields.text("idNumber", false, id_number_length_max)) {
        if (!id_number_valid(*id)) fields.problem("idNumber", "must be letters and digits (spaces, - . / allowed)");
        else out.id_number = *id;
    }
    out.reference = fields.text("reference", false, rules::reference_length_max);
    if (auto status = fields.text("status", false, 20)) {
        if (!rules::parse_status(*status)) {
            fields.problem("status", "must be one of pending, processing, completed, cancelled, expired");
        } else {
            out.status = *status;
        }
    }
    if (auto before = fields.text("createdBefore", false, 35)) {
        if (!timestamp_valid(*before)) fields.problem("createdBefore", "must be an ISO 8601 date-time");
        else out.created_before = *before;
    }
    if (const json* limit = fields.get("limit")) {
        if (!limit->is_number_integer() || limit->get<std::int64_t>() < 1 || limit->get<std::int64_t>() > search_limit_max) {
            fields.problem("limit", "must be an integer from 1 to 100");
        } else {
            out.limit = static_cast<int>(limit->get<std::int64_t>());
        }
    }
    finish(fields, problems);
    return out;
}

std::string require_idempotency_key(const HttpRequest& request) {
    const auto key = request.header("idempotency-key");
    if (!key || key->empty()) throw validation_error("Idempotency-Key: header is required on every write");
    if (!rules::idempotency_key_valid(*key)) {
        throw validation_error("Idempotency-Key: must be 1 to 255 printable ASCII characters without spaces");
    }
    return *key;
}

std::optional<std::string> canonical_uuid(const std::string& text) {
    if (text.size() != 36) return std::nullopt;
    std::string out;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (i == 8 || i == 13 || i == 18 || i == 23) {
            if (c != '-') return std::nullopt;
            out.push_back('-');
        } else if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')) {
            out.push_back(c);
        } else if (c >= 'A' && c <= 'F') {
            out.push_back(static_cast<char>(c - 'A' + 'a'));
        } else {
            return std::nullopt;
        }
    }
    return out;
}

}  // namespace corebank::httpd::verify
