// requests.cpp: see requests.hpp.
#include "events/requests.hpp"

#include <charconv>

#include "core/base64url.hpp"
#include "core/events_identity.hpp"
#include "core/events_windows.hpp"
#include "core/name_text.hpp"
#include "events/responses.hpp"
#include "json_body.hpp"

namespace corebank::httpd::events {

namespace {

using nlohmann::json;

constexpr std::string_view cursor_prefix = "v1:";
constexpr std::size_t member_id_length_max = 64;

const char* const selector_names[] = {"userId", "zbIdSubject", "phone", "email", "nationalId", "sessionId"};

[[noreturn]] void refuse(const char* type, json loc, const std::string& msg, json input) {
    throw ValidationFailure(json::array({validation_item(type, std::move(loc), msg, std::move(input))}));
}

std::optional<std::int64_t> parse_int64(const std::string& text) {
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    return value;
}

// A query value (Pistache has already %-decoded it); absent or empty is
// nullopt.
std::optional<std::string> query_value(const HttpRequest& request, const char* name, std::size_t max_chars) {
    const auto it = request.query.find(name);
    if (it == request.query.end() || it->second.empty()) return std::nullopt;
    const std::string& value = it->second;
    if (value.find('\0') != std::string::npos)
        refuse("string_type", json::array({"query", name}), "Input should be a valid string", nullptr);
    if (value.size() > max_chars)
        refuse("string_too_long", json::array({"query", name}),
               "String should have at most " + std::to_string(max_chars) + " characters", value.substr(0, 64));
    return value;
}

}  // namespace

json shape_problem_items(const std::vector<core::events::ShapeProblem>& problems) {
    json items = json::array();
    for (const auto& problem : problems) {
        json loc = json::array({"body"});
        for (const json& part : problem.loc) loc.push_back(part);
        items.push_back(validation_item(problem.type.c_str(), std::move(loc), problem.msg, problem.input));
    }
    return items;
}

std::string check_ingest_body(const std::string& body) {
    std::string text = body;
    if (text.size() >= 3 && text.compare(0, 3, "\xEF\xBB\xBF") == 0) text.erase(0, 3);
    if (text.find_first_not_of(" \t\r\n") == std::string::npos) refuse("missing", json::array({"body"}), "Field required", nullptr);
    json parsed;
    std::string duplicate_key;
    try {
        parsed = parse_request_json(text, /*allow_exceptions=*/true, &duplicate_key);
    } catch (const json::parse_error& error) {
        json item = validation_item("json_invalid", json::array({"body", error.byte > 0 ? error.byte - 1 : 0}),
                                    "JSON decode error", json::object());
        item["ctx"] = {{"error", error.what()}};
        throw ValidationFailure(json::array({std::move(item)}));
    } catch (const json::exception& error) {
        json item = validation_item("json_invalid", json::array({"body", 0}), "JSON decode error", json::object());
        item["ctx"] = {{"error", error.what()}};
        throw ValidationFailure(json::array({std::move(item)}));
    }
    if (parsed.is_discarded()) {
        json item = validation_item("json_invalid", json::array({"body", 0}), "JSON decode error", json::object());
        item["ctx"] = {{"error", "duplicate key '" + duplicate_key + "' in an object"}};
        throw ValidationFailure(json::array({std::move(item)}));
    }
    const core::events::Batch batch = core::events::read_request_body(parsed);
    if (!batch.problems.empty()) throw ValidationFailure(shape_problem_items(batch.problems));
    return text;
}

std::string encode_cursor(std::int64_t after_micros, std::int64_t after_id) {
    return core::base64url_encode(std::string(cursor_prefix) + std::to_string(after_micros) + ":" +
                                  std::to_string(after_id));
}

std::optional<std::pair<std::int64_t, std::int64_t>> decode_cursor(const std::string& cursor) {
    if (cursor.empty() || cursor.size() > cursor_length_max) return std::nullopt;
    const std::optional<std::string> text = core::base64url_decode(cursor);
    if (!text || text->compare(0, cursor_prefix.size(), cursor_prefix) != 0) return std::nullopt;
    const std::string rest = text->substr(cursor_prefix.size());
    const auto colon = rest.find(':');
    if (colon == std::string::npos) return std::nullopt;
    const auto micros = parse_int64(rest.substr(0, colon));
    const auto id = parse_int64(rest.substr(colon + 1));
    if (!micros || !id || *id < 0) return std::nullopt;
    return std::make_pair(*micros, *id);
}

Page read_page(const HttpRequest& request) {
    Page page;
    if (const auto limit = query_value(request, "limit", 20)) {
        const auto value = parse_int64(*limit);
        if (!value) refuse("int_parsing", json::array({"query", "limit"}),
                           "Input should be a valid integer, unable to parse string as an integer", *limit);
        if (*value < 1)
            refuse("greater_than_equal", json::array({"query", "limit"}), "Input should be greater than or equal to 1",
                   *limit);
        if (*value > page_size_max)
            refuse("less_than_equal", json::array({"query", "limit"}),
                   "Input should be less than or equal to " + std::to_string(page_size_max), *limit);
        page.limit = static_cast<int>(*value);
    }
    if (const auto cursor = query_value(request, "cursor", cursor_length_max * 2)) {
        const auto decoded = decode_cursor(*cursor);
        if (!decoded)
            throw BusinessError(422, "invalid_request", "cursor: is not a cursor this service issued",
                                json{{"cursor", *cursor}});
        page.after_micros = decoded->first;
        page.after_id = decoded->second;
    }
    return page;
}

Selector read_selector(const HttpRequest& request) {
    std::vector<std::pair<std::string, std::string>> given;
    for (const char* name : selector_names)
        if (auto value = query_value(request, name, selector_value_length_max)) given.emplace_back(name, *value);
    const std::optional<std::string> platform = query_value(request, "platform", core::events::platform_length_max);
    const std::string expected =
        "give exactly one selector: userId (with platform), zbIdSubject, phone, email, nationalId or sessionId";
    if (given.size() != 1) {
        json names = json::array();
        for (const auto& [name, value] : given) names.push_back(name);
        throw BusinessError(422, "invalid_selector",
                            (given.empty() ? "No lookup selector given: " : "More than one lookup selector given: ") +
                                expected,
                            json{{"selectors", names}});
    }
    Selector selector{given.front().first, given.front().second, platform};
    if (selector.kind == "userId" && !platform)
        throw BusinessError(422, "invalid_selector", "userId needs platform: " + expected,
                            json{{"selectors", json::array({"userId"})}});
    if (selector.kind != "userId" && platform)
        throw BusinessError(422, "invalid_selector", "platform goes only with userId: " + expected,
                            json{{"selectors", json::array({selector.kind, "platform"})}});
    return selector;
}

std::string read_customer_id(const HttpRequest& request) {
    const auto it = request.path_params.find("customerId");
    if (it == request.path_params.end() || !core::events::public_customer_id_valid(it->second))
        throw BusinessError(404, "not_found", "Customer not found");
    return it->second;
}

std::string read_member_id(const HttpRequest& request) {
    const auto it = request.path_params.find("memberId");
    const std::string member_id = it == request.path_params.end() ? "" : it->second;
    if (!core::is_name_text(member_id, member_id_length_max))
        refuse("string_pattern_mismatch", json::array({"path", "memberId"}),
               "String should match pattern '^[A-Za-z0-9._:-]{1,64}$'", member_id.substr(0, 200));
    return member_id;
}

std::string read_loyalty_body(const std::string& body) {
    if (body.find_first_not_of(" \t\r\n") == std::string::npos)
        refuse("missing", json::array({"body"}), "Field required", nullptr);
    const json parsed = parse_request_json(body);
    if (parsed.is_discarded()) refuse("json_invalid", json::array({"body", 0}), "JSON decode error", json::object());
    if (!parsed.is_object()) refuse("dict_type", json::array({"body"}), "Input should be a valid dictionary", parsed);
    json items = json::array();
    for (const auto& item : parsed.items())
        if (item.key() != "customerId")
            items.push_back(validation_item("extra_forbidden", json::array({"body", item.key().substr(0, 64)}),
                                            "Extra inputs are not permitted", item.value()));
    const auto customer = parsed.find("customerId");
    if (customer == parsed.end() || customer->is_null())
        items.push_back(validation_item("missing", json::array({"body", "customerId"}), "Field required", parsed));
    else if (!customer->is_string())
        items.push_back(validation_item("string_type", json::array({"body", "customerId"}),
                                        "Input should be a valid string", *customer));
    else if (!core::events::public_customer_id_valid(customer->get<std::string>()))
        items.push_back(validation_item("string_pattern_mismatch", json::array({"body", "customerId"}),
                                        "String should match pattern '^cus_[a-z2-7]{20}$'", *customer));
    if (!items.empty()) throw ValidationFailure(std::move(items));
    return customer->get<std::string>();
}

namespace {

constexpr std::size_t instant_length_max = 40;
constexpr std::size_t source_length_max = 100;

// A required query value: a 'missing' item when absent or empty.
std::optional<std::string> required_query(const HttpRequest& request, const char* name, std::size_t max_chars,
                                          json& items) {
    std::optional<std::string> value = query_value(request, name, max_chars);
    if (!value) items.push_back(validation_item("missing", json::array({"query", name}), "Field required", nullptr));
    return value;
}

}  // namespace

ParityQuery read_parity_query(const HttpRequest& request, const std::string& caller_source) {
    namespace ev = core::events;
    json items = json::array();
    ParityQuery query;
    query.source = query_value(request, "source", source_length_max * 4).value_or(caller_source);
    if (!core::is_name_text(query.source, source_length_max))
        items.push_back(validation_item("string_pattern_mismatch", json::array({"query", "source"}),
                                        "String should match pattern '^[A-Za-z0-9._:-]{1,100}$'",
                                        query.source.substr(0, 200)));
    query.granularity = query_value(request, "granularity", 20).value_or("hour");
    const std::optional<ev::Granularity> granularity = ev::parse_granularity(query.granularity);
    if (!granularity)
        items.push_back(validation_item("value_error", json::array({"query", "granularity"}),
                                        "Value error, granularity must be 'hour' or 'day'", query.granularity));
    query.type = query_value(request, "type", ev::type_length_max);
    std::optional<ev::UtcInstant> bounds[2];
    const char* const names[] = {"from", "to"};
    for (int i = 0; i < 2; ++i) {
        const std::optional<std::string> text = required_query(request, names[i], instant_length_max, items);
        if (!text) continue;
        (i == 0 ? query.from : query.to) = *text;
        bounds[i] = ev::parse_utc_instant(*text);
        if (!bounds[i]) {
            items.push_back(validation_item("datetime_format", json::array({"query", names[i]}),
                                            "Input should be an ISO 8601 UTC datetime ending in Z, e.g. "
                                            "2026-11-21T10:00:00Z",
                                            *text));
        } else if (granularity && !ev::starts_window(*bounds[i], *granularity)) {
            items.push_back(validation_item("value_error", json::array({"query", names[i]}),
                                            "Value error, must start a UTC " + query.granularity, *text));
            bounds[i].reset();
        }
    }
    if (granularity && bounds[0] && bounds[1])
        if (const auto problem = ev::parity_range_problem(bounds[0]->seconds, bounds[1]->seconds, *granularity))
            items.push_back(validation_item("value_error", json::array({"query", "to"}), "Value error, " + *problem,
                                            query.to));
    if (!items.empty()) throw ValidationFailure(std::move(items));
    return query;
}

InsightsQuery read_insights_query(const HttpRequest& request) {
    namespace ev = core::events;
    json items = json::array();
    InsightsQuery query;
    std::optional<std::int64_t> days[2];
    const char* const names[] = {"from", "to"};
    for (int i = 0; i < 2; ++i) {
        const std::optional<std::string> text = required_query(request, names[i], instant_length_max, items);
        if (!text) continue;
        (i == 0 ? query.from : query.to) = *text;
        days[i] = ev::parse_utc_day(*text);
        if (!days[i])
            items.push_back(validation_item("date_parsing", json::array({"query", names[i]}),
                                            "Input should be a valid date in the format YYYY-MM-DD", *text));
    }
    if (days[0] && days[1])
        if (const auto problem = ev::insights_range_problem(*days[0], *days[1]))
            items.push_back(validation_item("value_error", json::array({"query", "to"}), "Value error, " + *problem,
                                            query.to));
    if (!items.empty()) throw ValidationFailure(std::move(items));
    return query;
}

}  // namespace corebank::httpd::events
