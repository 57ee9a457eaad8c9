// events_graph.cpp: see events_graph.hpp.
#include "pg/events_graph.hpp"

#include <cstring>

#include "core/crypto.hpp"
#include "pg/check.hpp"
#include "pg/spi.hpp"

namespace corebank::pg::events {

namespace {

using core::events::CustomerChange;
using core::events::CustomerFacts;

// Owners of a list of identifiers, with the survivor's facts. Columns:
// 1 kind, 2 value, 3 survivor id, 4 display_name, 5 is_guest.
constexpr const char load_owners_sql[] =
    "SELECT i.kind, i.value, w.id, w.display_name, w.is_guest "
    "FROM unnest($1::text[], $2::text[]) AS x(kind, value) "
    "JOIN corebank.customer_identifiers i ON i.kind = x.kind AND i.value = x.value "
    "JOIN corebank.customers_graph c ON c.id = i.customer_id "
    "JOIN corebank.customers_graph w ON w.id = coalesce(c.merged_into, c.id)";

// A new customer and its identifiers in one statement; the count is the
// identifiers inserted (fewer: one was taken meanwhile).
constexpr const char create_customer_sql[] =
    "WITH customer AS ("
    "    INSERT INTO corebank.customers_graph (id, public_id, display_name, is_guest) VALUES ($1, $2, $3, $4)) "
    "INSERT INTO corebank.customer_identifiers (kind, value, customer_id) "
    "SELECT x.kind, x.value, $1 FROM unnest($5::text[], $6::text[]) AS x(kind, value) "
    "ON CONFLICT DO NOTHING";

constexpr const char attach_identifiers_sql[] =
    "INSERT INTO corebank.customer_identifiers (kind, value, customer_id) "
    "SELECT x.kind, x.value, $1 FROM unnest($2::text[], $3::text[]) AS x(kind, value) "
    "ON CONFLICT DO NOTHING";

constexpr const char move_sessions_sql[] =
    "UPDATE corebank.customer_identifiers i SET customer_id = $1 "
    "WHERE i.kind = 'session' AND i.value = ANY ($2::text[]) AND i.customer_id <> $1";

constexpr const char update_customer_sql[] =
    "UPDATE corebank.customers_graph c "
    "SET display_name = coalesce($2, c.display_name), is_guest = c.is_guest AND NOT $3, updated_at = now() "
    "WHERE c.id = $1";

// Ties go to the later event: "an older occurredAt than the stored decision
// is ignored", an equal one is not older.
constexpr const char upsert_consent_sql[] =
    "INSERT INTO corebank.consents AS k (customer_id, purpose, status, occurred_at, event_row_id) "
    "VALUES ($1, $2, $3, $4::timestamptz, $5) "
    "ON CONFLICT (customer_id, purpose) DO UPDATE "
    "SET status = excluded.status, occurred_at = excluded.occurred_at, event_row_id = excluded.event_row_id, "
    "    updated_at = now() "
    "WHERE k.occurred_at <= excluded.occurred_at";

// The claimed identifier's survivor, locking the identifier row so that two
// claims of one identifier take turns. Column 1: survivor id.
constexpr const char claimed_owner_sql[] =
    "SELECT coalesce(c.merged_into, c.id) "
    "FROM corebank.customer_identifiers i JOIN corebank.customers_graph c ON c.id = i.customer_id "
    "WHERE i.kind = $1 AND i.value = $2 "
    "FOR NO KEY UPDATE OF i";

// Both customers of a merge, locked in id order (no deadlock between two
// merges). Columns: 1 id, 2 merged_into is null.
constexpr const char lock_pair_sql[] =
    "SELECT c.id, c.merged_into IS NULL FROM corebank.customers_graph c "
    "WHERE c.id = $1 OR c.id = $2 ORDER BY c.id FOR NO KEY UPDATE";

// Columns: 1 display_name, 2 is_guest of the survivor after the merge.
constexpr const char merge_sql[] =
    "SELECT m.display_name, m.is_guest FROM corebank_internal.events_merge($1, $2, $3, $4, $5) m";

std::string identifier_key(const Identifier& identifier) { return identifier.kind + '\x1f' + identifier.value; }

std::string customer_key(const Uuid& customer) {
    return std::string(reinterpret_cast<const char*>(customer.bytes.data()), customer.bytes.size());
}

Uuid customer_of_key(const std::string& key) {
    CB_CHECK(key.size() == 16);
    Uuid customer;
    std::memcpy(customer.bytes.data(), key.data(), key.size());
    return customer;
}

void split(const std::vector<Identifier>& identifiers, std::vector<std::string>& kinds,
           std::vector<std::string>& values) {
    kinds.reserve(identifiers.size());
    values.reserve(identifiers.size());
    for (const Identifier& identifier : identifiers) {
        kinds.push_back(identifier.kind);
        values.push_back(identifier.value);
    }
}

// The identifier insert of create_customer / attach_identifiers reported
// `inserted` rows out of `expected`.
void require_all_inserted(std::uint64_t inserted, std::size_t expected) {
    CB_CHECK(inserted <= expected);
    if (inserted != expected) throw ConcurrentChange();
}

}  // namespace

/*---- GraphCache ----*/

std::string GraphCache::survivor(std::string customer) const {
    // merged_ is flattened by set_merged, so one step is enough; the bound
    // only guards against a bug.
    for (int step = 0; step < 2; ++step) {
        const auto it = merged_.find(customer);
        if (it == merged_.end()) return customer;
        customer = it->second;
    }
    CB_CHECK(merged_.find(customer) == merged_.end());
    return customer;
}

void GraphCache::load(const std::vector<Identifier>& identifiers) {
    if (identifiers.empty()) return;
    std::vector<std::string> kinds;
    std::vector<std::string> values;
    split(identifiers, kinds, values);
    const std::uint64_t rows = spi::execute(
        load_owners_sql, {spi::Arg::text_column(std::move(kinds)), spi::Arg::text_column(std::move(values))});
    CB_CHECK(rows <= identifiers.size());
    for (std::uint64_t row = 0; row < rows; ++row) {
        const Identifier identifier{spi::get_text(row, 1).value(), spi::get_text(row, 2).value()};
        const std::string customer = customer_key(spi::get_uuid(row, 3).value());
        CustomerFacts facts{spi::get_text(row, 4), spi::get_bool(row, 5).value()};
        owners_[identifier_key(identifier)] = customer;
        // The database is newer than anything this batch staged before.
        merged_.erase(customer);
        facts_[customer] = std::move(facts);
    }
    spi::free_result();
}

std::optional<Uuid> GraphCache::owner(const Identifier& identifier) const {
    const auto it = owners_.find(identifier_key(identifier));
    if (it == owners_.end()) return std::nullopt;
    return customer_of_key(survivor(it->second));
}

const CustomerFacts& GraphCache::facts(const Uuid& customer) const {
    const auto it = facts_.find(survivor(customer_key(customer)));
    CB_CHECK(it != facts_.end());
    return it->second;
}

void GraphCache::set_owner(const Identifier& identifier, const Uuid& customer) {
    const std::string key = identifier_key(identifier);
    const auto it = owners_.find(key);
    undo_.push_back(Undo{Table::owners, key, it == owners_.end() ? std::nullopt : std::optional(it->second), {}});
    owners_[key] = customer_key(customer);
}

void GraphCache::set_facts(const Uuid& customer, const CustomerFacts& facts) {
    const std::string key = customer_key(customer);
    const auto it = facts_.find(key);
    undo_.push_back(Undo{Table::facts, key, {}, it == facts_.end() ? std::nullopt : std::optional(it->second)});
    facts_[key] = facts;
}

void GraphCache::set_merged(const Uuid& loser, const Uuid& winner) {
    const std::string loser_key = customer_key(loser);
    const std::string winner_key = customer_key(winner);
    CB_CHECK(loser_key != winner_key && merged_.find(winner_key) == merged_.end());
    // Flatten: whoever pointed at the loser now points at the winner.
    for (auto& [from, to] : merged_) {
        if (to != loser_key) continue;
        undo_.push_back(Undo{Table::merged, from, to, {}});
        to = winner_key;
    }
    const auto it = merged_.find(loser_key);
    undo_.push_back(Undo{Table::merged, loser_key, it == merged_.end() ? std::nullopt : std::optional(it->second), {}});
    merged_[loser_key] = winner_key;
}

void GraphCache::commit() { undo_.clear(); }

void GraphCache::discard() {
    for (auto it = undo_.rbegin(); it != undo_.rend(); ++it) {
        switch (it->table) {
            case Table::owners:
                if (it->owner_or_winner) owners_[it->key] = *it->owner_or_winner;
                else owners_.erase(it->key);
                break;
            case Table::facts:
                if (it->facts) facts_[it->key] = *it->facts;
                else facts_.erase(it->key);
                break;
            case Table::merged:
                if (it->owner_or_winner) merged_[it->key] = *it->owner_or_winner;
                else merged_.erase(it->key);
                break;
        }
    }
    undo_.clear();
}

/*---- statements ----*/

Uuid new_customer_id() { return random_uuid_v4(); }

void create_customer(const Uuid& customer, const CustomerFacts& facts, const std::vector<Identifier>& identifiers) {
    CB_CHECK(!identifiers.empty());
    const std::string public_id =
        core::events::public_customer_id(core::random_bytes(core::events::public_customer_id_random_bytes));
    std::vector<std::string> kinds;
    std::vector<std::string> values;
    split(identifiers, kinds, values);
    const std::uint64_t inserted =
        spi::execute(create_customer_sql,
                     {spi::Arg::uuid(customer), spi::Arg::text(public_id), spi::Arg::text(facts.display_name),
                      spi::Arg::boolean(facts.is_guest), spi::Arg::text_column(std::move(kinds)),
                      spi::Arg::text_column(std::move(values))});
    require_all_inserted(inserted, identifiers.size());
}

void attach_identifiers(const Uuid& customer, const std::vector<Identifier>& identifiers) {
    if (identifiers.empty()) return;
    std::vector<std::string> kinds;
    std::vector<std::string> values;
    split(identifiers, kinds, values);
    const std::uint64_t inserted =
        spi::execute(attach_identifiers_sql, {spi::Arg::uuid(customer), spi::Arg::text_column(std::move(kinds)),
                                              spi::Arg::text_column(std::move(values))});
    require_all_inserted(inserted, identifiers.size());
}

void move_sessions(const Uuid& customer, const std::vector<std::string>& session_ids) {
    if (session_ids.empty()) return;
    spi::execute(move_sessions_sql, {spi::Arg::uuid(customer), spi::Arg::text_column(session_ids)});
}

void update_customer(const Uuid& customer, const CustomerChange& change) {
    CB_CHECK(change.any());
    const std::uint64_t rows =
        spi::execute(update_customer_sql, {spi::Arg::uuid(customer), spi::Arg::text(change.display_name),
                                           spi::Arg::boolean(change.stop_being_guest)});
    CB_CHECK(rows == 1);
}

void upsert_consent(const Uuid& customer, const core::events::Consent& consent, const std::string& occurred_at,
                    std::int64_t event_row_id) {
    spi::execute(upsert_consent_sql,
                 {spi::Arg::uuid(customer), spi::Arg::text(consent.purpose),
                  spi::Arg::text(consent.granted ? "granted" : "revoked"), spi::Arg::text(occurred_at),
                  spi::Arg::int8(event_row_id)});
}

void claim(GraphCache& cache, const Uuid& customer, const Identifier& claimed, std::int64_t event_row_id) {
    const std::uint64_t found =
        spi::execute(claimed_owner_sql, {spi::Arg::text(claimed.kind), spi::Arg::text(claimed.value)});
    CB_CHECK(found <= 1);
    if (found == 0) {
        spi::free_result();
        // Nobody owns it: the claim attaches it.
        attach_identifiers(customer, {claimed});
        cache.set_owner(claimed, customer);
        return;
    }
    const Uuid owner = spi::get_uuid(0, 1).value();
    spi::free_result();
    if (customer_key(owner) == customer_key(customer)) return;

    const std::uint64_t locked = spi::execute(lock_pair_sql, {spi::Arg::uuid(owner), spi::Arg::uuid(customer)});
    CB_CHECK(locked == 2);
    const bool both_surviving = spi::get_bool(0, 2).value() && spi::get_bool(1, 2).value();
    spi::free_result();
    // One of them was merged after this batch looked: decide again.
    if (!both_surviving) throw ConcurrentChange();

    const std::uint64_t merged =
        spi::execute(merge_sql, {spi::Arg::uuid(owner), spi::Arg::uuid(customer), spi::Arg::text(claimed.kind),
                                 spi::Arg::text(claimed.value), spi::Arg::int8(event_row_id)});
    CB_CHECK(merged == 1);
    const CustomerFacts survivor_facts{spi::get_text(0, 1), spi::get_bool(0, 2).value()};
    spi::free_result();
    cache.set_merged(owner, customer);
    cache.set_facts(customer, survivor_facts);
    cache.set_owner(claimed, customer);
}

}  // namespace corebank::pg::events
