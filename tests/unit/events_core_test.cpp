// events_core_test.cpp: the event service's pure rules (extension/core/
// events_*.cpp, phone_e164.cpp), the same code the extension runs.
//
// Goal: phone numbers normalise to E.164 with the home country; the batch
// shape check reports Pydantic-style problems with their paths; every type
// of the registry validates with the exact error strings in the documented
// order; identifiers normalise; the resolution plan picks the strongest
// known identifier, attaches unknown ones and moves only sessions.
// Method: pure functions on hand-written JSON.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <string>

#include <nlohmann/json.hpp>

#include "core/events_envelope.hpp"
#include "core/events_identity.hpp"
#include "core/events_registry.hpp"
#include "core/phone_e164.hpp"

namespace {

using nlohmann::json;
namespace ev = corebank::core::events;
using corebank::core::phone_to_e164;

json envelope(const std::string& type, json payload, json identity = {{"platform", "web"}, {"userId", "u1"}}) {
    return {{"eventId", "e1"}, {"type", type}, {"occurredAt", "2026-11-21T10:00:00Z"}, {"identity", identity},
            {"payload", payload}};
}

const ev::PlatformRegistry& platforms() {
    static const ev::PlatformRegistry registry{{"web", true},      {"android", true}, {"ios", true},
                                               {"ussd", true},     {"whatsapp", true}, {"pos", true},
                                               {"retired", false}};
    return registry;
}

// Validates one envelope; the error string or "" when valid.
std::string check(const json& one) {
    const json events = json::array({one});
    const ev::Batch batch = ev::read_events(events);
    if (!batch.problems.empty()) return "SHAPE " + ev::describe(batch.problems.front());
    return ev::validate_event(batch.envelopes.front(), platforms(), "263").error.value_or("");
}

TEST(PhoneE164, HomeCountrySpellings) {
    for (const char* raw : {"0771234567", "0771 234 567", "077-123-4567", "+263771234567", "+263 77 123 4567",
                            "00263771234567", "263771234567", "+263 (0)77 123 4567", "(077) 123.4567"})
        EXPECT_EQ(phone_to_e164(raw, "263"), "+263771234567") << raw;
}

TEST(PhoneE164, ForeignAndInvalid) {
    EXPECT_EQ(phone_to_e164("+27 82 555 0101", "263"), "+27825550101");
    EXPECT_EQ(phone_to_e164("0825550101", "27"), "+27825550101");
    EXPECT_EQ(phone_to_e164("771234567", "263"), std::nullopt) << "no trunk 0, no country code: ambiguous";
    EXPECT_EQ(phone_to_e164("12345", "263"), std::nullopt);
    EXPECT_EQ(phone_to_e164("+0123456789", "263"), std::nullopt);
    EXPECT_EQ(phone_to_e164("+1234567890123456", "263"), std::nullopt) << "16 digits";
    EXPECT_EQ(phone_to_e164("077 123 456x", "263"), std::nullopt);
    EXPECT_EQ(phone_to_e164("07712+34567", "263"), std::nullopt);
    EXPECT_EQ(phone_to_e164("", "263"), std::nullopt);
    EXPECT_EQ(phone_to_e164(std::string(65, '1'), "263"), std::nullopt);
    EXPECT_TRUE(corebank::core::calling_code_valid("1"));
    EXPECT_FALSE(corebank::core::calling_code_valid("0"));
    EXPECT_FALSE(corebank::core::calling_code_valid("1234"));
}

TEST(EventsShape, BatchBounds) {
    EXPECT_EQ(ev::read_events(json::array()).problems.front().type, "too_short");
    json many = json::array();
    for (int i = 0; i < 501; ++i) many.push_back(envelope("page.viewed", {{"path", "/"}}));
    const auto problem = ev::read_events(many).problems.front();
    EXPECT_EQ(problem.type, "too_long");
    EXPECT_EQ(problem.msg, "List should have at most 500 items after validation, not 501");
    many.erase(many.begin());
    EXPECT_TRUE(ev::read_events(many).problems.empty());
    EXPECT_EQ(ev::read_events(json::object()).problems.front().type, "list_type");
}

TEST(EventsShape, ProblemsCarryTheirPath) {
    json bad = envelope("page.viewed", {{"path", "/"}});
    bad["identity"].erase("platform");
    bad["occurredAt"] = "2026-11-21";
    bad["extra"] = 1;
    const ev::Batch batch = ev::read_request_body(json{{"events", json::array({envelope("page.viewed", json::object()), bad})}});
    ASSERT_EQ(batch.problems.size(), 3u);
    EXPECT_TRUE(batch.envelopes.empty());
    std::vector<std::string> seen;
    for (const auto& p : batch.problems) seen.push_back(p.type + " " + p.loc.dump());
    EXPECT_NE(std::find(seen.begin(), seen.end(), R"(extra_forbidden ["events",1,"extra"])"), seen.end());
    EXPECT_NE(std::find(seen.begin(), seen.end(), R"(datetime_format ["events",1,"occurredAt"])"), seen.end());
    EXPECT_NE(std::find(seen.begin(), seen.end(), R"(missing ["events",1,"identity","platform"])"), seen.end());
    EXPECT_EQ(ev::describe(batch.problems.front()).rfind("events[1].", 0), 0u);
}

TEST(EventsShape, BodyLevel) {
    EXPECT_EQ(ev::read_request_body(json::array()).problems.front().type, "dict_type");
    EXPECT_EQ(ev::read_request_body(json::object()).problems.front().loc, json::array({"events"}));
    const auto extra = ev::read_request_body(json{{"events", json::array({envelope("page.viewed", {})})}, {"source", "x"}});
    EXPECT_EQ(extra.problems.front().type, "extra_forbidden");
}

TEST(EventsShape, FieldRules) {
    json e = envelope("page.viewed", {{"path", "/"}});
    e["eventId"] = std::string(121, 'x');
    EXPECT_EQ(check(e), "SHAPE events[0].eventId: String should have at most 120 characters");
    e["eventId"] = std::string(120, 'x');
    EXPECT_EQ(check(e), "");
    e["schemaVersion"] = 0;
    EXPECT_EQ(check(e), "SHAPE events[0].schemaVersion: Input should be greater than or equal to 1");
    e["schemaVersion"] = "2";
    EXPECT_EQ(check(e), "SHAPE events[0].schemaVersion: Input should be a valid integer");
    e["schemaVersion"] = 2;
    e["payload"] = json::array();
    EXPECT_EQ(check(e), "SHAPE events[0].payload: Input should be a valid dictionary");
    e["payload"] = nullptr;
    EXPECT_EQ(check(e), "missing required payload field 'path'") << "a null payload is {}";
    e["identity"]["isGuest"] = "no";
    EXPECT_EQ(check(e), "SHAPE events[0].identity.isGuest: Input should be a valid boolean");
}

TEST(EventsShape, OccurredAt) {
    for (const char* good : {"2026-11-21T10:00:00Z", "2024-02-29T23:59:59.999999999Z", "0001-01-01T00:00:00Z"})
        EXPECT_TRUE(ev::occurred_at_valid(good)) << good;
    for (const char* bad : {"2026-11-21T10:00:00", "2026-11-21T10:00:00+00:00", "2025-02-29T00:00:00Z",
                            "2026-04-31T00:00:00Z", "2026-11-21T24:00:00Z", "2026-11-21T10:00:60Z", "2026-11-21T10:00:00.Z",
                            "2026-11-21T10:00:00.0123456789Z", "0000-01-01T00:00:00Z", "2026-11-21 10:00:00Z", ""})
        EXPECT_FALSE(ev::occurred_at_valid(bad)) << bad;
}

TEST(EventsShape, PayloadDepthAndNul) {
    json deep = {{"path", "/"}};
    json* node = &deep;
    for (int i = 0; i < 40; ++i) node = &((*node)["x"] = json::object());
    EXPECT_EQ(check(envelope("page.viewed", deep)).rfind("SHAPE events[0].payload: Value error", 0), 0u);
    EXPECT_EQ(check(envelope("page.viewed", {{"path", std::string("a\0b", 3)}})).rfind("SHAPE events[0].payload", 0), 0u);
}

TEST(EventsRegistry, HasTheSpecificationsTypes) {
    EXPECT_EQ(ev::registry().size(), 21u);
    EXPECT_NE(ev::find_type("consent.updated"), nullptr);
    EXPECT_EQ(ev::find_type("order.refunded"), nullptr);
    for (const auto& type : ev::registry()) {
        for (const char* money : type.money) {
            const bool required = std::any_of(type.required.begin(), type.required.end(),
                                              [&](const char* field) { return std::strcmp(field, money) == 0; });
            EXPECT_TRUE(required) << type.name << "." << money << " is a required field";
        }
    }
}

TEST(EventsRegistry, ErrorStringsAndOrder) {
    EXPECT_EQ(check(envelope("order.nope", {})), "unknown event type 'order.nope'");
    EXPECT_EQ(check(envelope("order.paid", {}, {{"platform", "tv"}})), "unknown platform 'tv'");
    EXPECT_EQ(check(envelope("order.paid", {}, {{"platform", "retired"}})), "inactive platform 'retired'");
    EXPECT_EQ(check(envelope("order.paid", {{"total", "x"}})), "missing required payload field 'orderId'");
    EXPECT_EQ(check(envelope("order.paid", {{"orderId", "o"}, {"subtotal", "1"}, {"total", "-1"}, {"currency", "USD"}})),
              "invalid money field 'total': must be a decimal string >= 0");
    EXPECT_EQ(check(envelope("ticket.purchased", {{"orderId", "o"}, {"eventId", "show"}})),
              "missing required payload field 'quantity'");
    EXPECT_EQ(check(envelope("ticket.purchased", {{"orderId", "o"}, {"eventId", "show"}, {"quantity", 0}})), "");
}

TEST(EventsRegistry, Money) {
    for (const char* good : {"0", "0.00", "12", "007.50", "1234567890.123456789"}) EXPECT_TRUE(ev::money_valid(good)) << good;
    for (const char* bad : {"", "-1", "+1", "1.", ".5", "1e3", "1,00", " 1", "1 ", "0x1", "1.2.3", "NaN"})
        EXPECT_FALSE(ev::money_valid(bad)) << bad;
    EXPECT_TRUE(ev::money_valid(std::string(64, '9')));
    EXPECT_FALSE(ev::money_valid(std::string(65, '9')));
}

TEST(EventsRegistry, FieldRules) {
    EXPECT_EQ(check(envelope("consent.updated", {{"purpose", "p"}, {"status", "yes"}})),
              "invalid payload field 'status': must be granted or revoked");
    EXPECT_EQ(check(envelope("consent.updated", {{"purpose", 5}, {"status", "granted"}})),
              "invalid payload field 'purpose': must be a string of at most 100 characters");
    EXPECT_EQ(check(envelope("consent.updated", {{"purpose", "p"}, {"status", "granted"}}, {{"platform", "web"}})),
              "identity names no customer: consent.updated needs one of userId, zbIdSubject, phone, email, nationalId, sessionId");
    EXPECT_EQ(check(envelope("identity.claimed", {{"claimedType", "phone"}, {"claimedValue", "abc"}})),
              "invalid payload field 'claimedValue': is not a valid phone");
    EXPECT_EQ(check(envelope("order.created", {{"orderId", "o"}, {"total", "1"}, {"currency", "USD"},
                                               {"items", json::array({{{"productId", "p"}}, {{"qty", 1}}})}})),
              "missing required payload field 'items[1].productId'");
    EXPECT_EQ(check(envelope("page.viewed", {{"path", "/"}}, {{"platform", "web"}})), "") << "no identifier is fine here";
}

TEST(EventsIdentity, NormalisedIdentifiersStrongestFirst) {
    ev::IdentityBlock block;
    block.platform = "ios";
    block.session_id = "s1";
    block.email = " Ada@Example.COM ";
    block.phone = "0771234567";
    block.national_id = "63-123456 a/12";
    block.zbid_subject = "6F9619FF-8B86-D011-B42D-00C04FC964FF";
    block.user_id = "u1";
    const auto ids = ev::identifiers_of(block, "263");
    ASSERT_EQ(ids.size(), 6u);
    EXPECT_EQ(ids[0], (ev::Identifier{"user:ios", "u1"}));
    EXPECT_EQ(ids[1], (ev::Identifier{"zbid", "6f9619ff-8b86-d011-b42d-00c04fc964ff"}));
    EXPECT_EQ(ids[2], (ev::Identifier{"phone", "+263771234567"}));
    EXPECT_EQ(ids[3], (ev::Identifier{"email", "ada@example.com"}));
    EXPECT_EQ(ids[4], (ev::Identifier{"national_id", "63123456A12"}));
    EXPECT_EQ(ids[5], (ev::Identifier{"session", "s1"}));
    block.phone = "not a phone";
    EXPECT_EQ(ev::identifiers_of(block, "263").size(), 5u);
    EXPECT_EQ(ev::claimed_identifier("userId", " u2 ", "web", "263"), (ev::Identifier{"user:web", "u2"}));
    EXPECT_EQ(ev::claimed_identifier("email", "  ", "web", "263"), std::nullopt);
    EXPECT_EQ(ev::api_type_of_kind("national_id"), "nationalId");
}

TEST(EventsIdentity, ResolutionPlan) {
    const std::vector<ev::Identifier> ids{{"user:web", "u"}, {"email", "e"}, {"phone", "+263771234567"}, {"session", "s"}};
    // Nothing known: a new customer with everything attached.
    auto plan = ev::plan_resolution(ids, {std::nullopt, std::nullopt, std::nullopt, std::nullopt});
    EXPECT_FALSE(plan.named_by);
    EXPECT_EQ(plan.attach.size(), 4u);
    // The strongest known names the customer; the others' owners are kept,
    // except the session, which moves.
    plan = ev::plan_resolution(ids, {std::nullopt, std::string("B"), std::string("C"), std::string("G")});
    EXPECT_EQ(plan.named_by, 1u);
    EXPECT_EQ(plan.attach, (std::vector<std::size_t>{0}));
    EXPECT_EQ(plan.move, (std::vector<std::size_t>{3}));
    // Named by the session itself: nothing moves.
    plan = ev::plan_resolution(ids, {std::nullopt, std::nullopt, std::nullopt, std::string("G")});
    EXPECT_EQ(plan.named_by, 3u);
    EXPECT_TRUE(plan.move.empty());
    EXPECT_EQ(plan.attach.size(), 3u);
}

TEST(EventsIdentity, CustomerFacts) {
    ev::IdentityBlock guest;
    guest.platform = "web";
    guest.session_id = "s";
    EXPECT_TRUE(ev::new_customer_facts(guest, ev::identifiers_of(guest, "263")).is_guest);
    ev::IdentityBlock member = guest;
    member.user_id = "u";
    member.is_guest = true;
    member.display_name = "Ada";
    const auto ids = ev::identifiers_of(member, "263");
    EXPECT_FALSE(ev::new_customer_facts(member, ids).is_guest) << "a userId is a person";
    const auto change = ev::customer_change(ev::CustomerFacts{std::nullopt, true}, member, ids);
    EXPECT_TRUE(change.stop_being_guest);
    EXPECT_EQ(change.display_name, "Ada");
    EXPECT_FALSE(ev::customer_change(ev::CustomerFacts{std::string("Ada"), false}, member, ids).any());
}

TEST(EventsIdentity, PublicId) {
    const std::string id = ev::public_customer_id(std::string(13, '\xff'));
    EXPECT_EQ(id, "cus_77777777777777777777");
    EXPECT_TRUE(ev::public_customer_id_valid(id));
    EXPECT_TRUE(ev::public_customer_id_valid(ev::public_customer_id(std::string(13, '\0'))));
    EXPECT_FALSE(ev::public_customer_id_valid("cus_1111111111111111111a"));
    EXPECT_FALSE(ev::public_customer_id_valid("cus_aaaa"));
}

}  // namespace
