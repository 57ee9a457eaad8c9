// events_tier_test.cpp: the event service's tier rules (httpd/src/events/):
// request reading, the four body shapes, the route table and the
// configuration keys.
//
// Goal: a malformed ingest body becomes 422 items whose loc starts with
// "body"; cursors round-trip and foreign ones are refused; exactly one lookup
// selector is accepted; path and loyalty-body rules; the envelopes are
// exactly {success, data, message?}, {success, error{code, message,
// detail?}}, {detail} and {detail: [...]}; every documented route is served;
// the event configuration keys are validated.
// Method: hand-built requests and pure functions, no database.
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include <nlohmann/json.hpp>

#include "config.hpp"
#include "events/context.hpp"
#include "events/requests.hpp"
#include "events/responses.hpp"

namespace {

using nlohmann::json;
namespace events = corebank::httpd::events;
using corebank::httpd::HttpRequest;

json items_of(const std::function<void()>& call) {
    try {
        call();
    } catch (const events::ValidationFailure& failure) {
        return failure.items;
    }
    return json();
}

std::string business_code(const std::function<void()>& call) {
    try {
        call();
    } catch (const events::BusinessError& error) {
        return error.code;
    }
    return "";
}

HttpRequest query(std::map<std::string, std::string> values) {
    HttpRequest request;
    request.query = std::move(values);
    return request;
}

const char* valid_body =
    R"({"events":[{"eventId":"e1","type":"page.viewed","occurredAt":"2026-11-21T10:00:00Z",)"
    R"("identity":{"platform":"web","userId":"u1"},"payload":{"path":"/","n":1.50}}]})";

TEST(EventsRequests, ValidBodyPassesThroughUnchanged) {
    EXPECT_EQ(events::check_ingest_body(valid_body), valid_body) << "numbers reach the database exactly as sent";
    EXPECT_EQ(events::check_ingest_body(std::string("\xEF\xBB\xBF") + valid_body), valid_body) << "BOM dropped";
}

TEST(EventsRequests, MalformedBodies) {
    json items = items_of([] { events::check_ingest_body("{\"events\": ["); });
    ASSERT_TRUE(items.is_array());
    EXPECT_EQ(items[0]["type"], "json_invalid");
    EXPECT_EQ(items[0]["loc"][0], "body");
    items = items_of([] { events::check_ingest_body(""); });
    EXPECT_EQ(items, json::parse(R"([{"type":"missing","loc":["body"],"msg":"Field required","input":null}])"));
    items = items_of([] { events::check_ingest_body(R"({"events":[{"eventId":"e","type":"t","identity":{}}]})"); });
    ASSERT_EQ(items.size(), 1u) << "occurredAt may be absent (the receive time is stored)";
    EXPECT_EQ(items[0]["loc"], json::parse(R"(["body","events",0,"identity","platform"])"));
    EXPECT_EQ(items[0]["input"], json::object()) << "missing: input is the object it is missing from";
    items = items_of([] { events::check_ingest_body(R"({"events":[{"eventId":"e","eventId":"e"}]})"); });
    ASSERT_EQ(items.size(), 1u);
    EXPECT_EQ(items[0]["type"], "json_invalid") << "a key named twice in one object";
    items = items_of([] { events::check_ingest_body(R"({"events":[]})"); });
    EXPECT_EQ(items[0]["type"], "too_short");
}

TEST(EventsRequests, ValidationItemsAreBounded) {
    std::string body = R"({"events":[)";
    for (int i = 0; i < 300; ++i) body += std::string(i ? "," : "") + "{}";
    body += "]}";
    const json items = items_of([&] { events::check_ingest_body(body); });
    EXPECT_EQ(items.size(), 100u);
    const std::string big = R"({"events":[{"eventId":")" + std::string(5000, 'x') + R"("}]})";
    for (const auto& item : items_of([&] { events::check_ingest_body(big); }))
        EXPECT_LE(item["input"].dump().size(), 1024u);
}

TEST(EventsRequests, Cursor) {
    const std::string cursor = events::encode_cursor(1795255200000000, 4711);
    EXPECT_EQ(events::decode_cursor(cursor), std::make_pair(std::int64_t{1795255200000000}, std::int64_t{4711}));
    EXPECT_EQ(events::decode_cursor(events::encode_cursor(-5, 0)), std::make_pair(std::int64_t{-5}, std::int64_t{0}));
    for (const char* bad : {"", "abc", "djE6", "djE6MQ", "bm90IGEgY3Vyc29y", "djE6eDox", "djE6MTotMQ"})
        EXPECT_EQ(events::decode_cursor(bad), std::nullopt) << bad;
    EXPECT_EQ(business_code([] { events::read_page(query({{"cursor", "zzz"}})); }), "invalid_request");
}

TEST(EventsRequests, PageLimit) {
    EXPECT_EQ(events::read_page(query({})).limit, 100);
    EXPECT_EQ(events::read_page(query({{"limit", "500"}})).limit, 500);
    EXPECT_EQ(items_of([] { events::read_page(query({{"limit", "0"}})); })[0]["type"], "greater_than_equal");
    EXPECT_EQ(items_of([] { events::read_page(query({{"limit", "501"}})); })[0]["type"], "less_than_equal");
    EXPECT_EQ(items_of([] { events::read_page(query({{"limit", "1e2"}})); })[0]["loc"], json::parse(R"(["query","limit"])"));
}

TEST(EventsRequests, ExactlyOneSelector) {
    const auto selector = events::read_selector(query({{"email", "a@b.c"}}));
    EXPECT_EQ(selector.kind, "email");
    EXPECT_EQ(events::read_selector(query({{"userId", "u"}, {"platform", "web"}})).platform, "web");
    for (const auto& bad : std::vector<std::map<std::string, std::string>>{
             {}, {{"email", "a"}, {"phone", "1"}}, {{"userId", "u"}}, {{"platform", "web"}}, {{"email", "a"}, {"platform", "web"}}})
        EXPECT_EQ(business_code([&] { events::read_selector(query(bad)); }), "invalid_selector");
    EXPECT_EQ(events::read_selector(query({{"email", "a@b.c"}, {"phone", ""}})).kind, "email") << "empty is absent";
}

TEST(EventsRequests, PathsAndLoyaltyBody) {
    HttpRequest request;
    request.path_params["customerId"] = "cus_aaaaaaaaaaaaaaaaaaaa";
    EXPECT_EQ(events::read_customer_id(request), "cus_aaaaaaaaaaaaaaaaaaaa");
    request.path_params["customerId"] = "42";
    EXPECT_EQ(business_code([&] { events::read_customer_id(request); }), "not_found");
    request.path_params["memberId"] = "LM-1.a:b_c";
    EXPECT_EQ(events::read_member_id(request), "LM-1.a:b_c");
    request.path_params["memberId"] = "a b";
    EXPECT_EQ(items_of([&] { events::read_member_id(request); })[0]["loc"], json::parse(R"(["path","memberId"])"));
    EXPECT_EQ(events::read_loyalty_body(R"({"customerId":"cus_aaaaaaaaaaaaaaaaaaaa"})"), "cus_aaaaaaaaaaaaaaaaaaaa");
    EXPECT_EQ(items_of([] { events::read_loyalty_body(R"({"customerId":"cus_aaaaaaaaaaaaaaaaaaaa","x":1})"); })[0]["type"],
              "extra_forbidden");
    EXPECT_EQ(items_of([] { events::read_loyalty_body("{}"); })[0]["type"], "missing");
}

TEST(EventsRequests, ParityAndInsightQueries) {
    const auto parity = events::read_parity_query(
        query({{"from", "2026-11-21T10:00:00Z"}, {"to", "2026-11-21T12:00:00Z"}}), "shop");
    EXPECT_EQ(parity.source, "shop") << "the caller's own source by default";
    EXPECT_EQ(parity.granularity, "hour");
    EXPECT_FALSE(parity.type);
    EXPECT_EQ(events::read_parity_query(query({{"from", "2026-11-21T00:00:00Z"}, {"to", "2026-11-22T00:00:00Z"},
                                               {"granularity", "day"}, {"source", "other"}}),
                                        "shop")
                  .source,
              "other");
    const auto missing = items_of([] { events::read_parity_query(query({}), "shop"); });
    ASSERT_EQ(missing.size(), 2u);
    EXPECT_EQ(missing[0]["loc"], json::parse(R"(["query","from"])"));
    EXPECT_EQ(missing[1]["type"], "missing");
    EXPECT_EQ(items_of([] {
                  events::read_parity_query(query({{"from", "2026-11-21T10:30:00Z"}, {"to", "2026-11-21T12:00:00Z"}}),
                                            "shop");
              })[0]["type"],
              "value_error");
    EXPECT_EQ(items_of([] {
                  events::read_parity_query(query({{"from", "2026-11-21T10:00:00Z"}, {"to", "2026-11-21T12:00:00Z"},
                                                   {"source", "a b"}}),
                                            "shop");
              })[0]["loc"],
              json::parse(R"(["query","source"])"));
    const auto insights = events::read_insights_query(query({{"from", "2026-11-01"}, {"to", "2026-11-30"}}));
    EXPECT_EQ(insights.from, "2026-11-01");
    EXPECT_EQ(items_of([] { events::read_insights_query(query({{"from", "2026-11-31"}, {"to", "2026-12-01"}})); })[0]
                  ["type"],
              "date_parsing");
    EXPECT_EQ(items_of([] { events::read_insights_query(query({{"from", "2026-11-02"}, {"to", "2026-11-01"}})); })[0]
                  ["loc"],
              json::parse(R"(["query","to"])"));
}

TEST(EventsResponses, Shapes) {
    auto body = [](const corebank::httpd::HttpResponse& r) { return json::parse(r.body); };
    EXPECT_EQ(body(events::success(json{{"a", 1}})), json::parse(R"({"success":true,"data":{"a":1}})"));
    EXPECT_EQ(body(events::success(json::object(), 201, "done"))["message"], "done");
    const auto raw = events::success_raw(R"({"n": 1.50})");
    EXPECT_EQ(raw.body, R"({"success":true,"data":{"n": 1.50}})");
    const auto taken = events::render(events::BusinessError(409, "member_taken", "taken", json{{"memberId", "m"}}));
    EXPECT_EQ(taken.status, 409);
    EXPECT_EQ(body(taken), json::parse(R"({"success":false,"error":{"code":"member_taken","message":"taken","detail":{"memberId":"m"}}})"));
    EXPECT_EQ(body(events::render(events::BusinessError(404, "not_found", "x"))).at("error").count("detail"), 0u);
    events::DetailError limited(429, "slow down");
    limited.headers.emplace_back("Retry-After", "7");
    const auto r429 = events::render(limited);
    EXPECT_EQ(body(r429), json::parse(R"({"detail":"slow down"})"));
    EXPECT_EQ(r429.headers.front().second, "7");
    const auto r422 = events::render(events::ValidationFailure(json::array({events::validation_item("missing", {"body"}, "Field required", nullptr)})));
    EXPECT_EQ(r422.status, 422);
    EXPECT_EQ(body(r422)["detail"][0]["type"], "missing");
    corebank::httpd::ApiError not_allowed{405, "METHOD_NOT_ALLOWED", "no"};
    not_allowed.headers.emplace_back("Allow", "POST");
    const auto r405 = events::render_api_error(not_allowed);
    EXPECT_EQ(body(r405), json::parse(R"({"success":false,"error":{"code":"method_not_allowed","message":"no"}})"));
    EXPECT_EQ(r405.headers.front().first, "Allow");
}

TEST(EventsRouter, ServesTheDocumentedRoutes) {
    const auto router = events::make_router(std::make_shared<events::Context>());
    std::set<std::string> served;
    for (const auto& route : router.routes()) served.insert(route.method + " " + route.pattern);
    const std::set<std::string> expected{
        "GET /health", "GET /openapi.json", "POST /v1/events", "GET /v1/feed", "GET /v1/platforms",
        "GET /v1/customers/lookup", "GET /v1/customers/:customerId", "GET /v1/customers/:customerId/events",
        "GET /v1/customers/:customerId/consents", "GET /v1/customers/:customerId/traits",
        "GET /v1/customers/:customerId/insights", "GET /v1/parity",
        "GET /v1/loyalty/members/:memberId", "PUT /v1/loyalty/members/:memberId"};
    EXPECT_EQ(served, expected);
    HttpRequest lookup;
    lookup.method = "GET";
    lookup.path = "/v1/customers/lookup";
    const auto match = router.match(lookup);
    ASSERT_NE(match.route, nullptr);
    EXPECT_EQ(match.route->pattern, "/v1/customers/lookup") << "the literal segment wins over :customerId";
}

TEST(EventsConfig, Keys) {
    using corebank::httpd::load_config;
    const auto defaults = load_config("", {});
    EXPECT_EQ(defaults.event_platforms, (std::vector<std::string>{"web", "android", "ios", "ussd", "whatsapp", "pos"}));
    EXPECT_TRUE(defaults.event_platforms_inactive.empty());
    EXPECT_EQ(defaults.home_country_calling_code, "263");
    const auto custom = load_config("", {{"CORE_EVENT_PLATFORMS", "web, app, ios, ussd, kiosk, pos"},
                                         {"CORE_EVENT_PLATFORMS_INACTIVE", "kiosk"},
                                         {"CORE_HOME_COUNTRY_CALLING_CODE", "27"}});
    EXPECT_EQ(custom.event_platforms[1], "app");
    EXPECT_EQ(custom.event_platforms_inactive, (std::vector<std::string>{"kiosk"}));
    EXPECT_EQ(custom.home_country_calling_code, "27");
    EXPECT_THROW(load_config("", {{"CORE_EVENT_PLATFORMS", "web,ios"}}), std::runtime_error);
    EXPECT_THROW(load_config("", {{"CORE_EVENT_PLATFORMS", "web,web,a,b,c,d"}}), std::runtime_error);
    EXPECT_THROW(load_config("", {{"CORE_EVENT_PLATFORMS", "Web,a,b,c,d,e"}}), std::runtime_error);
    EXPECT_THROW(load_config("", {{"CORE_EVENT_PLATFORMS_INACTIVE", "tv"}}), std::runtime_error);
    EXPECT_THROW(load_config("", {{"CORE_HOME_COUNTRY_CALLING_CODE", "0263"}}), std::runtime_error);
    EXPECT_THROW(load_config("", {{"CORE_HOME_COUNTRY_CALLING_CODE", "+263"}}), std::runtime_error);
}

}  // namespace
