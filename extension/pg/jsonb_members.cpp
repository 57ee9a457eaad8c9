// jsonb_members.cpp: see jsonb_members.hpp.
#include "pg/jsonb_members.hpp"

#include <cstring>

#include "pg/check.hpp"
#include "pg/guard.hpp"

namespace corebank::pg {

namespace {

using Kind = core::money_request::Member::Kind;

// What the guarded lookup found, in POD form: a pointer into the jsonb (a
// string) or a palloc'd C string (a number).
struct RawMember {
    Kind kind;
    const char* data;
    int length;
};

}  // namespace

JsonbArgument::JsonbArgument(FunctionCallInfo fcinfo, int index) {
    CB_CHECK(index >= 0 && index < PG_NARGS());
    if (PG_ARGISNULL(index)) return;
    jsonb_ = pg_guard([&]() noexcept { return PG_GETARG_JSONB_P(index); });
}

bool JsonbArgument::is_object() const {
    CB_CHECK(jsonb_ != nullptr);
    return JB_ROOT_IS_OBJECT(jsonb_) && !JB_ROOT_IS_SCALAR(jsonb_);
}

core::money_request::Member JsonbArgument::member(const char* key) const {
    CB_CHECK(jsonb_ != nullptr && is_object());
    Jsonb* const jsonb = jsonb_;
    const int key_length = static_cast<int>(std::strlen(key));
    const RawMember raw = pg_guard([&]() noexcept {
        JsonbValue value;
        const JsonbValue* found = getKeyJsonValueFromContainer(&jsonb->root, key, key_length, &value);
        if (found == nullptr) return RawMember{Kind::absent, nullptr, 0};
        switch (found->type) {
            case jbvNull: return RawMember{Kind::null, nullptr, 0};
            case jbvString: return RawMember{Kind::string, found->val.string.val, found->val.string.len};
            case jbvNumeric: {
                const char* digits =
                    DatumGetCString(DirectFunctionCall1(numeric_out, NumericGetDatum(found->val.numeric)));
                return RawMember{Kind::number, digits, static_cast<int>(std::strlen(digits))};
            }
            case jbvBool: return RawMember{Kind::boolean, nullptr, 0};
            case jbvBinary:
                return RawMember{JsonContainerIsArray(found->val.binary.data) ? Kind::array : Kind::object, nullptr, 0};
            default: return RawMember{Kind::object, nullptr, 0};  // jbvArray/jbvObject are not returned for a member
        }
    });
    core::money_request::Member member;
    member.kind = raw.kind;
    if (raw.data != nullptr) member.text.assign(raw.data, static_cast<std::size_t>(raw.length));
    return member;
}

bool JsonbArgument::is_array() const {
    CB_CHECK(jsonb_ != nullptr);
    return JB_ROOT_IS_ARRAY(jsonb_) && !JB_ROOT_IS_SCALAR(jsonb_);
}

std::size_t JsonbArgument::array_size() const {
    CB_CHECK(jsonb_ != nullptr && is_array());
    return JB_ROOT_COUNT(jsonb_);
}

JsonbArgument JsonbArgument::element(std::size_t index) const {
    CB_CHECK(index < array_size());
    Jsonb* const jsonb = jsonb_;
    const auto position = static_cast<uint32>(index);
    return JsonbArgument(pg_guard([&]() noexcept {
        JsonbValue* found = getIthJsonbValueFromContainer(&jsonb->root, position);
        return found == nullptr ? static_cast<Jsonb*>(nullptr) : JsonbValueToJsonb(found);
    }));
}

JsonbArgument JsonbArgument::value(const char* key) const {
    CB_CHECK(jsonb_ != nullptr && is_object());
    Jsonb* const jsonb = jsonb_;
    const int key_length = static_cast<int>(std::strlen(key));
    return JsonbArgument(pg_guard([&]() noexcept {
        JsonbValue value;
        const JsonbValue* found = getKeyJsonValueFromContainer(&jsonb->root, key, key_length, &value);
        return found == nullptr ? static_cast<Jsonb*>(nullptr) : JsonbValueToJsonb(const_cast<JsonbValue*>(found));
    }));
}

std::string JsonbArgument::text() const {
    CB_CHECK(jsonb_ != nullptr);
    Jsonb* const jsonb = jsonb_;
    const char* printed =
        pg_guard([&]() noexcept { return static_cast<const char*>(JsonbToCString(nullptr, &jsonb->root, VARSIZE(jsonb))); });
    return std::string(printed);
}

}  // namespace corebank::pg
