// events_ingest.cpp: the SQL entry points of the event ingestion service
// written in C++ (docs/events.md): the batch ingest and the identifier
// normalisation the read functions share with it.
#include <optional>
#include <string>

#include "core/events_identity.hpp"
#include "core/phone_e164.hpp"
#include "entry/entry.hpp"
#include "pg/args.hpp"
#include "pg/events_ingest.hpp"
#include "pg/guard.hpp"

namespace {

using namespace corebank;
namespace args = corebank::pg::args;

constexpr std::size_t identifier_value_length_max = 320;

// The stored (kind, value) of an identifier given by its API name, or
// nullopt when the value does not normalise.
std::optional<core::events::Identifier> identifier_of(const std::string& kind, const std::string& value,
                                                      const std::optional<std::string>& platform,
                                                      const std::string& home_calling_code) {
    if (kind == "sessionId") {
        core::events::IdentityBlock block;
        block.session_id = value;
        const auto identifiers = core::events::identifiers_of(block, home_calling_code);
        if (identifiers.empty()) return std::nullopt;
        return identifiers.front();
    }
    if (kind == "userId" && !platform) args::throw_validation("platform: is required with userId");
    return core::events::claimed_identifier(kind, value, platform.value_or(""), home_calling_code);
}

}  // namespace

/* SQL function: corebank.events_ingest(source text, events jsonb) returns jsonb */
COREBANK_FUNCTION(events_ingest) { return pg::events::ingest(fcinfo); }

/* SQL function: corebank_internal.events_identifier(kind text, value text, platform text, home_calling_code text) returns text[] */
COREBANK_FUNCTION(events_identifier) {
    const std::string kind = args::require(args::text(fcinfo, 0), "kind");
    const std::string value = args::require(args::text(fcinfo, 1), "value");
    const std::optional<std::string> platform = args::text(fcinfo, 2);
    const std::string home_calling_code = args::require(args::text(fcinfo, 3), "home_calling_code");
    if (!core::calling_code_valid(home_calling_code))
        args::throw_validation("home_calling_code: must be 1 to 3 digits, not starting with 0");
    bool known_kind = kind == "sessionId";
    for (const std::string& name : core::events::claimable_types()) known_kind = known_kind || kind == name;
    if (!known_kind) args::throw_validation("kind: must be userId, zbIdSubject, phone, email, nationalId or sessionId");
    args::check_length(value, "value", identifier_value_length_max);

    const std::optional<core::events::Identifier> identifier = identifier_of(kind, value, platform, home_calling_code);
    if (!identifier) PG_RETURN_NULL();
    const char* parts[2] = {identifier->kind.c_str(), identifier->value.c_str()};
    return pg::pg_guard([&]() noexcept {
        Datum elements[2] = {CStringGetTextDatum(parts[0]), CStringGetTextDatum(parts[1])};
        return PointerGetDatum(construct_array(elements, 2, TEXTOID, -1, false, TYPALIGN_INT));
    });
}
