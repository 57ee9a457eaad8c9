// transfer_batch.cpp: see transfer_batch.hpp.
#include "core/transfer_batch.hpp"

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/json_unique_keys.hpp"
#include "core/ledger.hpp"

namespace corebank::core::transfer_batch {

namespace {

using nlohmann::json;

// {"transfers": [{...}]} is three levels deep; a member of the wrong type
// may add a few (reported as that member's error), anything deeper is
// refused while parsing, before it is built.
constexpr int json_depth_max = 6;

[[noreturn]] void invalid(const std::string& field, const std::string& reason) {
    throw CoreError(sqlstate_validation, field + ": " + reason);
}

json parse_json(std::string_view text) {
    if (text.size() > request_bytes_max) invalid("request", "must be at most 4 MiB");
    // A key named twice in one object is refused as well (core/json_unique_keys.hpp).
    JsonUniqueKeys keys;
    const json::parser_callback_t guard = [&keys](int depth, json::parse_event_t event, json& value) {
        if ((event == json::parse_event_t::object_start || event == json::parse_event_t::array_start) &&
            depth >= json_depth_max) {
            invalid("request", "is nested too deeply");
        }
        if (!keys.accept(event, value)) invalid("request", "names a key twice in one object");
        return true;
    };
    json root = json::parse(text.begin(), text.end(), guard, false);
    if (root.is_discarded()) invalid("request", "must be valid JSON");
    if (!root.is_object()) invalid("request", "must be a JSON object");
    return root;
}

void refuse_unknown(const json& object, std::initializer_list<std::string_view> known, const std::string& at) {
    for (const auto& [name, value] : object.items()) {
        bool found = false;
        for (const std::string_view k : known) found = found || name == k;
        if (!found) invalid(at.empty() ? name : at + "." + name, "unknown field");
    }
}

// A string member; nullopt when absent or null. With `blank_is_absent`
// (reference, narrative) it is trimmed of spaces as the single money
// requests trim theirs (btrim), and blank counts as absent: the member's
// default applies. Otherwise (channel, idempotencyKey) an empty string is
// refused. Lengths count characters before trimming, as theirs do.
std::optional<std::string> text_member(const json& object, const char* key, const std::string& field,
                                       std::size_t characters_max, bool blank_is_absent) {
    const auto found = object.find(key);
    if (found == object.end() || found->is_null()) return std::nullopt;
    if (!found->is_string()) invalid(field, "must be a string");
    std::string value = found->get<std::string>();
    if (ledger::utf8_length(value) > characters_max) {
        invalid(field, "must be at most " + std::to_string(characters_max) + " characters");
    }
    for (const char c : value) {
        if (static_cast<unsigned char>(c) < 0x20) invalid(field, "must not contain control characters");
    }
    if (!blank_is_absent) {
        if (value.empty()) invalid(field, "must be 1 to " + std::to_string(characters_max) + " characters");
        return value;
    }
    const std::size_t first = value.find_first_not_of(' ');
    if (first == std::string::npos) return std::nullopt;
    return value.substr(first, value.find_last_not_of(' ') - first + 1);
}

std::string uuid_member(const json& object, const char* key, const std::string& field) {
    const auto found = object.find(key);
    if (found == object.end() || found->is_null()) invalid(field, "is required");
    if (!found->is_string()) invalid(field, "must be a UUID");
    std::optional<std::string> uuid = ledger::canonical_uuid(found->get<std::string>());
    if (!uuid) invalid(field, "must be a UUID");
    return *uuid;
}

std::int64_t amount_member(const json& object, const std::string& field) {
    const auto found = object.find("amountMinor");
    if (found == object.end() || found->is_null()) invalid(field, "is required");
    if (found->is_number_unsigned()) {
        // nlohmann reads every non-negative integer literal, 0 included, as unsigned.
        const std::uint64_t value = found->get<std::uint64_t>();
        if (value == 0) invalid(field, "must be greater than zero");
        if (value > static_cast<std::uint64_t>(amount_minor_max)) {
            invalid(field, "must be at most " + std::to_string(amount_minor_max));
        }
        return static_cast<std::int64_t>(value);
    }
    if (!found->is_number_integer()) invalid(field, "must be an integer number of minor units");
    const std::int64_t amount = found->get<std::int64_t>();
    if (amount <= 0) invalid(field, "must be greater than zero");
    if (amount > amount_minor_max) invalid(field, "must be at most " + std::to_string(amount_minor_max));
    return amount;
}

std::optional<std::string> currency_member(const json& object, const std::string& field) {
    const auto found = object.find("currency");
    if (found == object.end() || found->is_null()) return std::nullopt;
    if (!found->is_string()) invalid(field, "must be a 3-letter currency code");
    std::string code = found->get<std::string>();
    if (code.size() != 3) invalid(field, "must be a 3-letter currency code");
    for (char& c : code) {
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
        if (c < 'A' || c > 'Z') invalid(field, "must be a 3-letter currency code");
    }
    return code;
}

Transfer transfer_member(const json& item, std::size_t index) {
    const std::string at = "transfers[" + std::to_string(index) + "]";
    if (!item.is_object()) invalid(at, "must be a JSON object");
    refuse_unknown(item, {"fromAccountId", "toAccountId", "amountMinor", "currency", "reference", "narrative", "linked"},
                   at);
    Transfer transfer;
    transfer.from_account_id = uuid_member(item, "fromAccountId", at + ".fromAccountId");
    transfer.to_account_id = uuid_member(item, "toAccountId", at + ".toAccountId");
    if (transfer.from_account_id == transfer.to_account_id) invalid(at + ".toAccountId", "must differ from fromAccountId");
    transfer.amount_minor = amount_member(item, at + ".amountMinor");
    transfer.currency = currency_member(item, at + ".currency");
    transfer.reference = text_member(item, "reference", at + ".reference", reference_length_max, true);
    transfer.narrative = text_member(item, "narrative", at + ".narrative", narrative_length_max, true);
    const auto linked = item.find("linked");
    if (linked != item.end() && !linked->is_null()) {
        if (!linked->is_boolean()) invalid(at + ".linked", "must be true or false");
        transfer.linked = linked->get<bool>();
    }
    return transfer;
}

}  // namespace

TransferBatch parse_transfer_batch(std::string_view json_text) {
    const json root = parse_json(json_text);
    refuse_unknown(root, {"transfers", "channel", "idempotencyKey"}, "");
    TransferBatch batch;

    if (const auto channel = text_member(root, "channel", "channel", channel_length_max, false)) {
        if (!ledger::is_code_text(*channel, channel_length_max)) {
            invalid("channel", "must be 1 to 32 of A-Z a-z 0-9 _ . -");
        }
        batch.channel = *channel;
        for (char& c : batch.channel) {
            if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
        }
    }
    batch.idempotency_key = text_member(root, "idempotencyKey", "idempotencyKey", idempotency_key_length_max, false);

    const auto transfers = root.find("transfers");
    if (transfers == root.end() || transfers->is_null()) invalid("transfers", "is required");
    if (!transfers->is_array()) invalid("transfers", "must be an array");
    if (transfers->empty()) invalid("transfers", "must hold at least one transfer");
    if (transfers->size() > transfers_max) {
        invalid("transfers", "must hold at most " + std::to_string(transfers_max) + " transfers");
    }
    batch.transfers.reserve(transfers->size());
    for (std::size_t index = 0; index < transfers->size(); ++index) {
        batch.transfers.push_back(transfer_member((*transfers)[index], index));
    }
    return batch;
}

std::vector<Chain> linked_chains(const std::vector<Transfer>& transfers) {
    std::vector<Chain> chains;
    std::size_t first = 0;
    for (std::size_t index = 0; index < transfers.size(); ++index) {
        if (transfers[index].linked) continue;
        chains.push_back(Chain{first, index, false});
        first = index + 1;
    }
    if (first < transfers.size()) chains.push_back(Chain{first, transfers.size() - 1, true});
    return chains;
}

}  // namespace corebank::core::transfer_batch
