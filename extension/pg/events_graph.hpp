// events_graph.hpp: the identity graph as ingest sees and changes it
// (docs/events.md, "Identity resolution" and "Merges").
//
// GraphCache holds, for one batch, who owns each identifier the batch names
// (always the surviving customer, following merged_into) and the facts of
// those customers. It is loaded with one query before the first event, so
// resolving an event whose identifiers are known costs no query at all.
// Each event's changes are applied at once and recorded in an undo log:
// commit() keeps them when the event's subtransaction commits, discard()
// reverts them when it rolls back, so the cache never shows what the
// database does not hold.
//
// The cache can be stale: another batch may have created, since the load, an
// identifier this one believes unknown. Every write that relies on "unknown"
// (creating a customer, attaching identifiers, attaching a claimed
// identifier) uses ON CONFLICT DO NOTHING and counts the rows; fewer rows
// than expected throw ConcurrentChange, and ingest rolls the event back,
// reloads its identifiers and tries again. Merges lock the two customers
// (FOR NO KEY UPDATE, in id order) and throw ConcurrentChange when either
// was merged meanwhile.
#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/events_identity.hpp"
#include "core/events_registry.hpp"
#include "pg/values.hpp"

namespace corebank::pg::events {

using core::events::Identifier;

// Another transaction changed the graph under this event; retry it.
class ConcurrentChange : public std::exception {
public:
    const char* what() const noexcept override { return "concurrent change of the identity graph"; }
};

class GraphCache {
public:
    // Reads the owners of `identifiers` (and their facts); adds to the cache.
    void load(const std::vector<Identifier>& identifiers);

    // The surviving customer that owns the identifier, if any.
    std::optional<Uuid> owner(const Identifier& identifier) const;
    // Facts of a customer the cache knows (checked).
    const core::events::CustomerFacts& facts(const Uuid& customer) const;

    void set_owner(const Identifier& identifier, const Uuid& customer);
    void set_facts(const Uuid& customer, const core::events::CustomerFacts& facts);
    void set_merged(const Uuid& loser, const Uuid& winner);

    void commit();
    void discard();

private:
    enum class Table { owners, facts, merged };
    struct Undo {
        Table table;
        std::string key;
        std::optional<std::string> owner_or_winner;  // owners, merged
        std::optional<core::events::CustomerFacts> facts;
    };

    std::string survivor(std::string customer) const;

    std::unordered_map<std::string, std::string> owners_;  // identifier key -> customer bytes
    std::unordered_map<std::string, core::events::CustomerFacts> facts_;
    std::unordered_map<std::string, std::string> merged_;  // loser -> winner (customer bytes)
    std::vector<Undo> undo_;
};

Uuid new_customer_id();

// INSERT of the customer and its identifiers in one statement; throws
// ConcurrentChange when an identifier was taken meanwhile.
void create_customer(const Uuid& customer, const core::events::CustomerFacts& facts,
                     const std::vector<Identifier>& identifiers);
// Attaches identifiers nobody owned; ConcurrentChange when one is taken.
void attach_identifiers(const Uuid& customer, const std::vector<Identifier>& identifiers);
// Re-points session identifiers to the customer the event resolved to.
void move_sessions(const Uuid& customer, const std::vector<std::string>& session_ids);
void update_customer(const Uuid& customer, const core::events::CustomerChange& change);

// consent.updated: upsert unless the stored decision has a newer occurredAt.
void upsert_consent(const Uuid& customer, const core::events::Consent& consent, const std::string& occurred_at,
                    std::int64_t event_row_id);

// identity.claimed: attach the claimed identifier when nobody owns it;
// merge its owner into `customer` when another customer does.
void claim(GraphCache& cache, const Uuid& customer, const Identifier& claimed, std::int64_t event_row_id);

}  // namespace corebank::pg::events
