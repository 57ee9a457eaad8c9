// events_ingest.hpp: corebank.events_ingest, one batch in one call
// (docs/events.md, "Ingest").
//
// For each envelope, in the order given:
//   1. shape (the whole batch, before anything is written): a problem is
//      SQLSTATE CBV00 and the batch is refused;
//   2. registry validation (type, platform, payload fields) -> `invalid`;
//   3. dedupe: an eventId already stored for this source (one query for the
//      batch) or accepted earlier in the batch -> `duplicate`, no work;
//   4. in its own subtransaction: resolve the identity, INSERT the event
//      ON CONFLICT (source, event_id) DO NOTHING (no row -> `duplicate` and
//      the subtransaction is rolled back, so a re-post changes nothing),
//      then the effects (identity.claimed, consent.updated);
//   5. after the last event, the rollups of the events stored (parity and
//      insights): one call of corebank_internal.events_rollup_batch.
// A data or integrity error inside an event's subtransaction (class 22 or 23,
// which the checks above should already prevent) rolls that event back and
// reports it `invalid`; any other error (a deadlock, statement_timeout, out
// of memory) fails the whole call, as it must. A lost race on the identity
// graph retries the event up to ingest_event_attempts_max times, then fails
// the call with SQLSTATE 40001 so the caller retries the batch.
#pragma once

#include "pg/postgres.hpp"

namespace corebank::pg::events {

inline constexpr int ingest_event_attempts_max = 3;

// The body of corebank.events_ingest(source text, events jsonb) returns jsonb.
Datum ingest(FunctionCallInfo fcinfo);

}  // namespace corebank::pg::events
