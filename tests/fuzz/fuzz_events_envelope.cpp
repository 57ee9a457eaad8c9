// fuzz_events_envelope: POST /v1/events's body check (httpd/src/events/
// requests.hpp) and the envelope validation under it (extension/core/
// events_envelope.hpp), plus the page cursor decoder.
#include <nlohmann/json.hpp>

#include "core/events_envelope.hpp"
#include "events/requests.hpp"
#include "events/responses.hpp"
#include "fuzz_common.hpp"

using namespace corebank::httpd::events;
namespace core_events = corebank::core::events;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const auto [selector, text] = corebank::fuzz::select(data, size);
    switch (selector % 4) {
    case 0:
        try {
            (void)check_ingest_body(text);
        } catch (const ValidationFailure& failure) {
            FUZZ_CHECK(failure.items.is_array() && !failure.items.empty());
        } catch (const BusinessError&) {
        }
        break;
    case 1: {
        // What corebank.events_ingest receives: the events array alone.
        const nlohmann::json parsed = nlohmann::json::parse(text, nullptr, false);
        if (parsed.is_discarded()) break;
        const core_events::Batch batch = core_events::read_events(parsed);
        for (const auto& problem : batch.problems) (void)core_events::describe(problem);
        if (batch.problems.empty())
            for (const auto& envelope : batch.envelopes) FUZZ_CHECK(envelope.payload != nullptr);
        break;
    }
    case 2: (void)core_events::occurred_at_valid(text); break;
    default: {
        const auto cursor = decode_cursor(text);
        if (cursor) (void)encode_cursor(cursor->first, cursor->second);
        break;
    }
    }
    return 0;
}
