// jsonb_members.hpp: the members of a jsonb argument, read without printing
// and parsing the whole value again.
//
// The money engine (pg/money_posting.hpp) reads a request's members one by
// one with core/money_request.hpp; this adapter finds a member in the jsonb
// container and hands it over as a core::money_request::Member, a number as
// numeric_out prints it (the text the SQL readers saw with `#>> '{}'`).
#pragma once

#include <cstddef>
#include <string>

#include "core/money_request.hpp"
#include "pg/postgres.hpp"

namespace corebank::pg {

class JsonbArgument {
public:
    // The jsonb argument `index` of the call; a SQL NULL is absent().
    JsonbArgument(FunctionCallInfo fcinfo, int index);
    // A value already detoasted (an element or member of another one); nullptr is absent().
    explicit JsonbArgument(Jsonb* jsonb) : jsonb_(jsonb) {}

    bool absent() const { return jsonb_ == nullptr; }
    // A JSON object (not an array, not a scalar).
    bool is_object() const;
    // The member `key` of the object (is_object() must hold).
    core::money_request::Member member(const char* key) const;
    // A JSON array, and its elements (is_array() must hold; index < array_size()).
    bool is_array() const;
    std::size_t array_size() const;
    JsonbArgument element(std::size_t index) const;
    // The member `key` of the object as a value of its own; absent() when missing.
    JsonbArgument value(const char* key) const;
    // The whole value as jsonb's text output prints it (what `request::text` gives in SQL).
    std::string text() const;

private:
    Jsonb* jsonb_ = nullptr;
};

}  // namespace corebank::pg
