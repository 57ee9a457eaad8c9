// events_registry.cpp: see events_registry.hpp.
#include "core/events_registry.hpp"

#include "core/utf8.hpp"

#include <cassert>

namespace corebank::core::events {

namespace {

using nlohmann::json;

bool blank(const std::string& text) { return text.find_first_not_of(" \t\r\n\f\v") == std::string::npos; }

// Absent, JSON null and a blank string all count as missing.
bool field_missing(const json& object, const char* name) {
    const auto it = object.find(name);
    if (it == object.end() || it->is_null()) return true;
    return it->is_string() && blank(it->get_ref<const std::string&>());
}

bool money_field_valid(const json& object, const char* name) {
    const auto it = object.find(name);
    return it != object.end() && it->is_string() && money_valid(it->get_ref<const std::string&>());
}

std::string missing_field(const std::string& field) { return "missing required payload field '" + field + "'"; }

std::string invalid_money(const std::string& field) {
    return "invalid money field '" + field + "': must be a decimal string >= 0";
}

std::string invalid_field(const std::string& field, const std::string& reason) {
    return "invalid payload field '" + field + "': " + reason;
}


// order.created: optional items, each an object with a productId and, when
// given, a decimal-string unitPrice.
std::optional<std::string> check_order_items(const json& payload) {
    const auto items = payload.find("items");
    if (items == payload.end() || items->is_null()) return std::nullopt;
    if (!items->is_array()) return invalid_field("items", "must be an array of objects");
    for (std::size_t index = 0; index < items->size(); ++index) {
        const json& item = (*items)[index];
        const std::string prefix = "items[" + std::to_string(index) + "]";
        if (!item.is_object()) return invalid_field(prefix, "must be an object");
        if (field_missing(item, "productId")) return missing_field(prefix + ".productId");
        const auto price = item.find("unitPrice");
        if (price != item.end() && !price->is_null() && !money_field_valid(item, "unitPrice"))
            return invalid_money(prefix + ".unitPrice");
    }
    return std::nullopt;
}

std::optional<std::string> check_consent(const json& payload, Validation& validation) {
    const json& purpose = payload.at("purpose");
    if (!purpose.is_string() || utf8_length(purpose.get_ref<const std::string&>()) > consent_purpose_length_max)
        return invalid_field("purpose",
                             "must be a string of at most " + std::to_string(consent_purpose_length_max) +
                                 " characters");
    const json& status = payload.at("status");
    if (status != "granted" && status != "revoked") return invalid_field("status", "must be granted or revoked");
    validation.consent = Consent{purpose.get<std::string>(), status == "granted"};
    return std::nullopt;
}

std::optional<std::string> check_claim(const Envelope& envelope, std::string_view home_calling_code,
                                       Validation& validation) {
    const json& payload = *envelope.payload;
    const json& type = payload.at("claimedType");
    bool known = false;
    for (const std::string& name : claimable_types()) known = known || type == name;
    if (!known) return invalid_field("claimedType", "must be one of userId, zbIdSubject, phone, email, nationalId");
    const json& value = payload.at("claimedValue");
    if (!value.is_string()) return invalid_field("claimedValue", "must be a string");
    const std::string& text = value.get_ref<const std::string&>();
    if (utf8_length(text) > email_length_max)
        return invalid_field("claimedValue", "must be at most " + std::to_string(email_length_max) + " characters");
    validation.claimed = claimed_identifier(type.get<std::string>(), text, envelope.identity.platform,
                                            home_calling_code);
    if (!validation.claimed) return invalid_field("claimedValue", "is not a valid " + type.get<std::string>());
    return std::nullopt;
}

}  // namespace

const std::vector<EventType>& registry() {
    static const std::vector<EventType> types{
        {"session.started", {"sessionId"}, {}},
        {"page.viewed", {"path"}, {}},
        {"identity.registered", {}, {}},
        {"identity.updated", {"changed"}, {}},
        {"identity.claimed", {"claimedType", "claimedValue"}, {}},
        {"order.created", {"orderId", "total", "currency"}, {"total"}},
        {"order.status_changed", {"orderId", "status"}, {}},
        {"order.paid", {"orderId", "subtotal", "total", "currency"}, {"subtotal", "total"}},
        {"payment.completed", {"paymentId", "amount", "currency"}, {"amount"}},
        {"payment.failed", {"paymentId"}, {}},
        {"billpay.initiated", {"transactionId", "amount", "total", "currency", "channel"}, {"amount", "total"}},
        {"billpay.completed", {"transactionId", "amount", "total", "currency", "channel"}, {"amount", "total"}},
        {"billpay.failed", {"transactionId"}, {}},
        {"ticket.purchased", {"orderId", "eventId", "quantity"}, {}},
        {"loan.applied", {"applicationId", "amountRequested", "currency"}, {"amountRequested"}},
        {"loan.status_changed", {"applicationId", "status"}, {}},
        {"loan.disbursed", {"applicationId", "amount", "currency"}, {"amount"}},
        {"loan.repayment", {"applicationId", "amount", "currency", "status"}, {"amount"}},
        {"notification.sent", {"messageId", "channel"}, {}},
        {"notification.delivered", {"messageId", "channel", "status"}, {}},
        {"consent.updated", {"purpose", "status"}, {}},
    };
    return types;
}

const EventType* find_type(std::string_view name) {
    for (const EventType& type : registry())
        if (name == type.name) return &type;
    return nullptr;
}

bool money_valid(std::string_view text) {
    if (text.empty() || text.size() > money_length_max) return false;
    std::size_t index = 0;
    auto digits = [&]() {
        const std::size_t start = index;
        while (index < text.size() && text[index] >= '0' && text[index] <= '9') ++index;
        return index > start;
    };
    if (!digits()) return false;
    if (index == text.size()) return true;
    if (text[index] != '.') return false;
    ++index;
    return digits() && index == text.size();
}

Validation validate_event(const Envelope& envelope, const PlatformRegistry& platforms,
                          std::string_view home_calling_code) {
    assert(envelope.payload != nullptr && envelope.payload->is_object());
    Validation validation;
    const EventType* type = find_type(envelope.type);
    if (type == nullptr) {
        validation.error = "unknown event type '" + envelope.type + "'";
        return validation;
    }
    const auto platform = platforms.find(envelope.identity.platform);
    if (platform == platforms.end()) {
        validation.error = "unknown platform '" + envelope.identity.platform + "'";
        return validation;
    }
    if (!platform->second) {
        validation.error = "inactive platform '" + envelope.identity.platform + "'";
        return validation;
    }
    const json& payload = *envelope.payload;
    for (const char* field : type->required) {
        if (field_missing(payload, field)) {
            validation.error = missing_field(field);
            return validation;
        }
    }
    for (const char* field : type->money) {
        if (!money_field_valid(payload, field)) {
            validation.error = invalid_money(field);
            return validation;
        }
    }
    const std::string_view name = type->name;
    if (name == "order.created") validation.error = check_order_items(payload);
    if (name == "consent.updated") validation.error = check_consent(payload, validation);
    if (name == "identity.claimed") validation.error = check_claim(envelope, home_calling_code, validation);
    if (validation.error) return validation;

    validation.identifiers = identifiers_of(envelope.identity, home_calling_code);
    if (validation.identifiers.empty() && (name == "consent.updated" || name == "identity.claimed")) {
        validation.error = "identity names no customer: " + std::string(name) +
                           " needs one of userId, zbIdSubject, phone, email, nationalId, sessionId";
    }
    return validation;
}

}  // namespace corebank::core::events
