// events_ingest.cpp: see events_ingest.hpp.
//
// Subtransactions follow PL/pgSQL's exec_stmt_block: remember
// CurrentMemoryContext and CurrentResourceOwner, BeginInternalSubTransaction,
// switch back to the remembered memory context (the work runs in the
// subtransaction's resource owner), then either ReleaseCurrentSubTransaction
// or, after an error, RollbackAndReleaseCurrentSubTransaction, and in both
// cases restore the memory context and the resource owner. The error itself
// has already been copied out of ErrorContext and flushed by pg_guard (its
// PG_CATCH does CopyErrorData + FlushErrorState), so what remains here is C++
// exception handling with no PostgreSQL error pending.
#include "pg/events_ingest.hpp"

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/errors.hpp"
#include "core/events_envelope.hpp"
#include "core/events_identity.hpp"
#include "core/events_registry.hpp"
#include "core/name_text.hpp"
#include "core/phone_e164.hpp"
#include "pg/args.hpp"
#include "pg/check.hpp"
#include "pg/events_graph.hpp"
#include "pg/guard.hpp"
#include "pg/spi.hpp"

// Subtransactions, resource owners and CHECK_FOR_INTERRUPTS are needed here
// only, so they are not in pg/postgres.hpp.
extern "C" {
#include "access/xact.h"
#include "miscadmin.h"
#include "utils/resowner.h"
}

namespace corebank::pg::events {

namespace {

using core::events::Envelope;
using core::events::Validation;
using nlohmann::json;

constexpr std::size_t source_length_max = 100;

// Columns: 1 home calling code, 2 platform name, 3 active.
constexpr const char settings_sql[] =
    "SELECT s.home_country_calling_code, p.name, p.active "
    "FROM corebank.event_settings s LEFT JOIN corebank.event_platforms p ON true";

// Advisory locks on identifier buckets (see BatchRun::lock_new_identifiers),
// taken in the order of the array, which is sorted. The namespace keeps them
// apart from any other advisory lock ("EVNT").
constexpr std::int32_t identifier_lock_namespace = 0x45564E54;
constexpr std::int32_t identifier_lock_buckets = 256;
constexpr const char lock_buckets_sql[] =
    "SELECT pg_advisory_xact_lock($1, b.bucket) FROM unnest($2::int4[]) AS b(bucket)";

// FNV-1a of kind and value: the same bucket in every backend.
std::int32_t identifier_bucket(const core::events::Identifier& identifier) {
    std::uint64_t hash = 14695981039346656037ull;
    auto mix = [&hash](const std::string& text) {
        for (const unsigned char c : text) hash = (hash ^ c) * 1099511628211ull;
    };
    mix(identifier.kind);
    mix(std::string(1, '\x1f'));
    mix(identifier.value);
    return static_cast<std::int32_t>(hash % static_cast<std::uint64_t>(identifier_lock_buckets));
}

// Column 1: an eventId of this batch already stored for the source.
constexpr const char stored_event_ids_sql[] =
    "SELECT e.event_id FROM corebank.events e WHERE e.source = $1 AND e.event_id = ANY ($2::text[])";

// $8 is the whole batch (by reference) and $9 the event's index in it: the
// identity block and payload are stored exactly as sent. An empty $5 (the
// envelope has no occurredAt) stores the receive time, now(), which is also
// received_at. Column 1: the row id; column 2: the stored occurred_at.
constexpr const char insert_event_sql[] =
    "INSERT INTO corebank.events AS e "
    "    (source, event_id, type, schema_version, occurred_at, platform, customer_id, identity, payload) "
    "VALUES ($1, $2, $3, $4, coalesce(nullif($5, '')::timestamptz, now()), $6, $7, $8 -> $9 -> 'identity', "
    "        coalesce(nullif($8 -> $9 -> 'payload', 'null'::jsonb), '{}'::jsonb)) "
    "ON CONFLICT (source, event_id) DO NOTHING "
    "RETURNING e.id, e.occurred_at::text";

// The rollups of the events the batch stored (docs/events.md, "Parity",
// "Insights"): one call per batch, after the last event, in the batch's
// transaction. Row ids of accepted events only: a duplicate never counts.
constexpr const char rollup_batch_sql[] = "SELECT corebank_internal.events_rollup_batch($1::int8[])";

// The per-event note of an accepted event that came without occurredAt.
constexpr const char occurred_at_stamped_note[] = "occurredAt was absent: the receive time was stored";

enum class Status { accepted, duplicate, invalid };

struct Outcome {
    Status status;
    std::string error;  // invalid only
};

struct Settings {
    std::string home_calling_code;
    core::events::PlatformRegistry platforms;
};

struct Subtransaction {
    MemoryContext context;
    ResourceOwner owner;
};

Subtransaction begin_subtransaction() {
    const Subtransaction saved{CurrentMemoryContext, CurrentResourceOwner};
    pg_guard([]() noexcept { BeginInternalSubTransaction(nullptr); });
    // Work in the caller's memory context, under the subtransaction's owner.
    MemoryContextSwitchTo(saved.context);
    return saved;
}

void release_subtransaction(const Subtransaction& saved) {
    pg_guard([]() noexcept { ReleaseCurrentSubTransaction(); });
    MemoryContextSwitchTo(saved.context);
    CurrentResourceOwner = saved.owner;
}

void rollback_subtransaction(const Subtransaction& saved) {
    pg_guard([]() noexcept { RollbackAndReleaseCurrentSubTransaction(); });
    MemoryContextSwitchTo(saved.context);
    CurrentResourceOwner = saved.owner;
}

// Class 22 (data exception) or 23 (integrity constraint violation): the
// event's own data was refused; anything else concerns the whole call.
bool event_data_error(const PgError& error) {
    const ErrorData* data = error.error_data();
    if (data == nullptr) return false;
    const int category = ERRCODE_TO_CATEGORY(data->sqlerrcode);
    return category == ERRCODE_TO_CATEGORY(ERRCODE_DATA_EXCEPTION) ||
           category == ERRCODE_TO_CATEGORY(ERRCODE_INTEGRITY_CONSTRAINT_VIOLATION);
}

Settings load_settings() {
    const std::uint64_t rows = spi::execute(settings_sql, {});
    CB_CHECK(rows >= 1 && rows <= core::events::platforms_max);
    Settings settings;
    settings.home_calling_code = spi::get_text(0, 1).value();
    for (std::uint64_t row = 0; row < rows; ++row) {
        const std::optional<std::string> name = spi::get_text(row, 2);
        if (name) settings.platforms[*name] = spi::get_bool(row, 3).value();
    }
    spi::free_result();
    CB_CHECK(core::calling_code_valid(settings.home_calling_code));
    return settings;
}

std::unordered_set<std::string> load_stored_event_ids(const std::string& source,
                                                       const std::vector<Envelope>& envelopes) {
    std::vector<std::string> ids;
    ids.reserve(envelopes.size());
    for (const Envelope& envelope : envelopes) ids.push_back(envelope.event_id);
    const std::uint64_t rows =
        spi::execute(stored_event_ids_sql, {spi::Arg::text(source), spi::Arg::text_column(std::move(ids))});
    CB_CHECK(rows <= envelopes.size());
    std::unordered_set<std::string> stored;
    for (std::uint64_t row = 0; row < rows; ++row) stored.insert(spi::get_text(row, 1).value());
    spi::free_result();
    return stored;
}

// Reads the jsonb argument into a parsed document (strings exactly, numbers
// as nlohmann reads them: only strings are ever inspected).
json parse_events(Jsonb* events) {
    const char* text = pg_guard([&]() noexcept {
        return static_cast<const char*>(JsonbToCString(nullptr, &events->root, VARSIZE(events)));
    });
    json parsed = json::parse(text, nullptr, /*allow_exceptions=*/false);
    if (parsed.is_discarded()) {
        // jsonb accepts numbers beyond a double's range; nlohmann does not.
        args::throw_validation("events: numbers must be within the range of a double");
    }
    return parsed;
}

class BatchRun {
public:
    BatchRun(std::string source, Datum events_datum, const core::events::Batch& batch, Settings settings,
             MemoryContext event_context)
        : source_(std::move(source)),
          events_datum_(events_datum),
          envelopes_(batch.envelopes),
          settings_(std::move(settings)),
          event_context_(event_context) {}

    json run() {
        validate_all();
        preload_graph();
        lock_new_identifiers();
        // Read after the locks: a batch this one waited for has committed.
        const std::unordered_set<std::string> stored = load_stored_event_ids(source_, envelopes_);

        json results = json::array();
        std::size_t counts[3] = {0, 0, 0};
        std::unordered_set<std::string> taken = stored;  // eventIds stored or accepted
        for (std::size_t index = 0; index < envelopes_.size(); ++index) {
            pg_guard([]() noexcept { CHECK_FOR_INTERRUPTS(); });
            const Envelope& envelope = envelopes_[index];
            Outcome outcome{Status::duplicate, {}};
            if (taken.count(envelope.event_id) == 0) {
                outcome = validations_[index].error ? Outcome{Status::invalid, *validations_[index].error}
                                                    : process(index);
            }
            if (outcome.status != Status::invalid) taken.insert(envelope.event_id);
            results.push_back(result_entry(envelope, outcome));
            ++counts[static_cast<int>(outcome.status)];
        }
        CB_CHECK(counts[0] + counts[1] + counts[2] == envelopes_.size());
        CB_CHECK(accepted_rows_.size() == counts[static_cast<int>(Status::accepted)]);
        roll_up();
        return json{{"results", std::move(results)},
                    {"accepted", counts[static_cast<int>(Status::accepted)]},
                    {"duplicates", counts[static_cast<int>(Status::duplicate)]},
                    {"invalid", counts[static_cast<int>(Status::invalid)]}};
    }

private:
    static json result_entry(const Envelope& envelope, const Outcome& outcome) {
        static const char* const names[] = {"accepted", "duplicate", "invalid"};
        json entry{{"eventId", envelope.event_id}, {"status", names[static_cast<int>(outcome.status)]}};
        if (outcome.status == Status::invalid) entry["error"] = outcome.error;
        if (outcome.status == Status::accepted && envelope.occurred_at.empty())
            entry["note"] = occurred_at_stamped_note;
        return entry;
    }

    void roll_up() {
        if (accepted_rows_.empty()) return;
        spi::execute(rollup_batch_sql, {spi::Arg::int8_column(std::move(accepted_rows_))});
        spi::free_result();
        accepted_rows_.clear();
    }

    void validate_all() {
        validations_.reserve(envelopes_.size());
        for (const Envelope& envelope : envelopes_)
            validations_.push_back(
                core::events::validate_event(envelope, settings_.platforms, settings_.home_calling_code));
        CB_CHECK(validations_.size() == envelopes_.size());
    }

    // Every identifier the batch names (identity blocks and claims), once.
    std::vector<core::events::Identifier> batch_identifiers() const {
        std::vector<core::events::Identifier> identifiers;
        std::unordered_set<std::string> seen;
        auto add = [&](const core::events::Identifier& identifier) {
            if (seen.insert(identifier.kind + '\x1f' + identifier.value).second) identifiers.push_back(identifier);
        };
        for (const Validation& validation : validations_) {
            if (validation.error) continue;
            for (const auto& identifier : validation.identifiers) add(identifier);
            if (validation.claimed) add(*validation.claimed);
        }
        return identifiers;
    }

    // One query for every identifier the batch names.
    void preload_graph() { cache_.load(batch_identifiers()); }

    // Two batches that create the same new identifiers in different orders
    // would wait on each other's uncommitted unique index entries until a
    // deadlock is detected. So before writing anything, a batch takes
    // transaction-level advisory locks on the buckets of the identifiers it
    // may create (those nobody owned at the preload), in ascending order:
    // batches sharing a new identifier take turns, and the later one reloads
    // what the earlier one committed. Known identifiers take no lock, so in
    // the steady state (customers already known) batches never wait here.
    void lock_new_identifiers() {
        std::vector<core::events::Identifier> unknown;
        std::vector<std::int32_t> buckets;
        for (const auto& identifier : batch_identifiers()) {
            if (cache_.owner(identifier)) continue;
            unknown.push_back(identifier);
            buckets.push_back(identifier_bucket(identifier));
        }
        if (unknown.empty()) return;
        std::sort(buckets.begin(), buckets.end());
        buckets.erase(std::unique(buckets.begin(), buckets.end()), buckets.end());
        CB_CHECK(buckets.size() <= static_cast<std::size_t>(identifier_lock_buckets));
        spi::execute(lock_buckets_sql,
                     {spi::Arg::int4(identifier_lock_namespace), spi::Arg::int4_column(std::move(buckets))});
        spi::free_result();
        cache_.load(unknown);
    }

    void reload(const Validation& validation) {
        std::vector<core::events::Identifier> identifiers = validation.identifiers;
        if (validation.claimed) identifiers.push_back(*validation.claimed);
        cache_.load(identifiers);
    }

    // One event in its own subtransaction; see events_ingest.hpp.
    Outcome process(std::size_t index) {
        for (int attempt = 1;; ++attempt) {
            MemoryContext const event_context = event_context_;
            pg_guard([&]() noexcept { MemoryContextReset(event_context); });
            const spi::ArgContext args_in(event_context);
            const Subtransaction saved = begin_subtransaction();
            try {
                const std::optional<std::int64_t> row_id = store(index);
                if (!row_id) {
                    // Stored meanwhile by a concurrent post: nothing changes.
                    rollback_subtransaction(saved);
                    cache_.discard();
                    return Outcome{Status::duplicate, {}};
                }
                release_subtransaction(saved);
                cache_.commit();
                accepted_rows_.push_back(*row_id);
                return Outcome{Status::accepted, {}};
            } catch (const ConcurrentChange&) {
                rollback_subtransaction(saved);
                cache_.discard();
                if (attempt >= ingest_event_attempts_max)
                    throw core::CoreError("40001", "concurrent changes to the identity graph; retry the batch",
                                          "event " + envelopes_[index].event_id);
                reload(validations_[index]);
            } catch (const PgError& error) {
                rollback_subtransaction(saved);
                cache_.discard();
                if (!event_data_error(error)) throw;
                return Outcome{Status::invalid, std::string("event could not be stored: ") + error.what()};
            } catch (...) {
                rollback_subtransaction(saved);
                cache_.discard();
                throw;
            }
        }
    }

    // Resolution, INSERT and effects; nullopt when the event is a duplicate.
    std::optional<std::int64_t> store(std::size_t index) {
        const Envelope& envelope = envelopes_[index];
        const Validation& validation = validations_[index];
        const std::optional<Uuid> customer = resolve(envelope, validation);
        const std::uint64_t rows = spi::execute(
            insert_event_sql,
            {spi::Arg::text(source_), spi::Arg::text(envelope.event_id), spi::Arg::text(envelope.type),
             spi::Arg::int4(envelope.schema_version), spi::Arg::text(envelope.occurred_at),
             spi::Arg::text(envelope.identity.platform), spi::Arg::uuid(customer),
             spi::Arg::jsonb_datum(events_datum_), spi::Arg::int4(static_cast<std::int32_t>(index))});
        CB_CHECK(rows <= 1);
        if (rows == 0) {
            spi::free_result();
            return std::nullopt;
        }
        const std::int64_t row_id = spi::get_int(0, 1).value();
        const std::string occurred_at = spi::get_text(0, 2).value();
        spi::free_result();
        if (validation.consent) {
            CB_CHECK(customer.has_value());
            upsert_consent(*customer, *validation.consent, occurred_at, row_id);
        }
        if (validation.claimed) {
            CB_CHECK(customer.has_value());
            claim(cache_, *customer, *validation.claimed, row_id);
        }
        return row_id;
    }

    // The event's customer (nullopt when the block has no usable
    // identifier), creating or updating it as the plan says.
    std::optional<Uuid> resolve(const Envelope& envelope, const Validation& validation) {
        const std::vector<core::events::Identifier>& identifiers = validation.identifiers;
        if (identifiers.empty()) return std::nullopt;
        std::vector<std::optional<Uuid>> owners;
        std::vector<std::optional<std::string>> owner_keys;
        for (const auto& identifier : identifiers) {
            owners.push_back(cache_.owner(identifier));
            owner_keys.push_back(owners.back() ? std::optional<std::string>(uuid_to_string(*owners.back()))
                                               : std::nullopt);
        }
        const core::events::ResolutionPlan plan = core::events::plan_resolution(identifiers, owner_keys);

        if (!plan.named_by) {
            const Uuid customer = new_customer_id();
            const core::events::CustomerFacts facts = core::events::new_customer_facts(envelope.identity, identifiers);
            create_customer(customer, facts, identifiers);
            cache_.set_facts(customer, facts);
            for (const auto& identifier : identifiers) cache_.set_owner(identifier, customer);
            return customer;
        }

        const Uuid customer = *owners[*plan.named_by];
        std::vector<core::events::Identifier> attach;
        for (const std::size_t position : plan.attach) attach.push_back(identifiers[position]);
        attach_identifiers(customer, attach);
        std::vector<std::string> sessions;
        for (const std::size_t position : plan.move) sessions.push_back(identifiers[position].value);
        move_sessions(customer, sessions);
        for (const auto& identifier : attach) cache_.set_owner(identifier, customer);
        for (const std::size_t position : plan.move) cache_.set_owner(identifiers[position], customer);

        const core::events::CustomerChange change =
            core::events::customer_change(cache_.facts(customer), envelope.identity, identifiers);
        if (change.any()) {
            update_customer(customer, change);
            core::events::CustomerFacts facts = cache_.facts(customer);
            if (change.display_name) facts.display_name = change.display_name;
            if (change.stop_being_guest) facts.is_guest = false;
            cache_.set_facts(customer, facts);
        }
        return customer;
    }

    const std::string source_;
    const Datum events_datum_;
    const std::vector<Envelope>& envelopes_;
    const Settings settings_;
    MemoryContext const event_context_;
    std::vector<Validation> validations_;
    std::vector<std::int64_t> accepted_rows_;  // row ids of the events stored, for roll_up
    GraphCache cache_;
};

}  // namespace

Datum ingest(FunctionCallInfo fcinfo) {
    const std::string source = args::require(args::text(fcinfo, 0), "source");
    if (!core::is_name_text(source, source_length_max)) args::throw_validation("source: must be 1 to 100 of A-Z a-z 0-9 . _ : -");
    CB_CHECK(PG_NARGS() == 2);
    if (PG_ARGISNULL(1)) args::throw_validation("events: is required");
    Jsonb* const events = pg_guard([&]() noexcept { return PG_GETARG_JSONB_P(1); });

    const json parsed = parse_events(events);
    const core::events::Batch batch = core::events::read_events(parsed);
    if (!batch.problems.empty()) args::throw_validation(core::events::describe(batch.problems.front()));
    CB_CHECK(batch.envelopes.size() >= core::events::batch_events_min &&
             batch.envelopes.size() <= core::events::batch_events_max);

    // Parameters of each event live here and are reset per event.
    MemoryContext const event_context = pg_guard([]() noexcept {
        return AllocSetContextCreate(CurrentMemoryContext, "corebank events_ingest event", ALLOCSET_DEFAULT_SIZES);
    });

    spi::connect();
    json result = BatchRun(source, PointerGetDatum(events), batch, load_settings(), event_context).run();
    spi::finish();

    const std::string text = result.dump(-1, ' ', false, json::error_handler_t::strict);
    const char* json_text = text.c_str();
    return pg_guard([&]() noexcept {
        MemoryContextDelete(event_context);
        return DirectFunctionCall1(jsonb_in, CStringGetDatum(json_text));
    });
}

}  // namespace corebank::pg::events
