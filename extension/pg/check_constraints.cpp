// check_constraints.cpp: see check_constraints.hpp.
//
// Every function here is called by PostgreSQL (the hook, the callbacks) or
// calls only PostgreSQL: no C++ object with a destructor is alive in these
// frames, so an ereport's longjmp passes through them safely, and nothing
// here throws.
#include "pg/check_constraints.hpp"

#include <cstdint>
#include <cstring>

#include "pg/postgres.hpp"

extern "C" {
#include "catalog/namespace.h"
#include "executor/executor.h"
#include "nodes/nodes.h"
#include "nodes/pg_list.h"
#include "optimizer/optimizer.h"
#include "utils/hsearch.h"
#include "utils/inval.h"
#include "utils/rel.h"
#include "utils/syscache.h"
}

namespace corebank::pg::check_constraints {

namespace {

// One table's planned CHECK expressions, in the relcache's order.
struct Entry {
    Oid relation;  // the hash key
    MemoryContext context;
    int count;
    char** names;    // each constraint's name, to recognise a stale entry
    Expr** planned;  // expression_planner(stringToNode(ccbin)), read-only
};

constexpr long initial_tables = 64;

HTAB* entries = nullptr;
// Counts the invalidations seen, so that a build they raced is not kept.
std::uint64_t invalidations = 0;
ExecutorStart_hook_type previous_executor_start = nullptr;

void drop_entry(Entry* entry) {
    MemoryContextDelete(entry->context);
    bool found = false;
    hash_search(entries, &entry->relation, HASH_REMOVE, &found);
    Assert(found);
}

void drop_all() {
    if (entries == nullptr) return;
    HASH_SEQ_STATUS status;
    hash_seq_init(&status, entries);
    // dynahash lets a scan remove the element it has just returned.
    while (Entry* entry = static_cast<Entry*>(hash_seq_search(&status))) drop_entry(entry);
}

void on_relcache(Datum /*arg*/, Oid relation) {
    ++invalidations;
    if (entries == nullptr) return;
    if (relation == InvalidOid) {
        drop_all();
        return;
    }
    if (Entry* entry = static_cast<Entry*>(hash_search(entries, &relation, HASH_FIND, nullptr))) drop_entry(entry);
}

void on_syscache(Datum /*arg*/, int /*cache*/, uint32 /*hash*/) {
    ++invalidations;
    drop_all();
}

bool matches(const Entry* entry, const TupleConstr* constraints) {
    if (entry->count != constraints->num_check) return false;
    for (int index = 0; index < entry->count; ++index)
        if (std::strcmp(entry->names[index], constraints->check[index].ccname) != 0) return false;
    return true;
}

// The table's planned expressions, built on first use (or after an
// invalidation) exactly as ExecRelCheck builds them for one statement; null
// when an invalidation arrived while they were built (the statement then
// leaves them to ExecRelCheck, and the next one builds them again).
Expr** planned_checks(Relation relation) {
    const TupleConstr* constraints = relation->rd_att->constr;
    const Oid relation_id = RelationGetRelid(relation);
    if (Entry* entry = static_cast<Entry*>(hash_search(entries, &relation_id, HASH_FIND, nullptr))) {
        if (matches(entry, constraints)) return entry->planned;
        drop_entry(entry);
    }
    const std::uint64_t invalidations_seen = invalidations;
    // Built under the statement's memory and moved under CacheMemoryContext
    // only when complete: an error meanwhile frees it with the statement.
    const MemoryContext context =
        AllocSetContextCreate(CurrentMemoryContext, "corebank check constraints", ALLOCSET_SMALL_SIZES);
    const MemoryContext previous = MemoryContextSwitchTo(context);
    const int count = constraints->num_check;
    char** const names = static_cast<char**>(palloc(sizeof(char*) * count));
    Expr** const planned = static_cast<Expr**>(palloc(sizeof(Expr*) * count));
    for (int index = 0; index < count; ++index) {
        names[index] = pstrdup(constraints->check[index].ccname);
        planned[index] = expression_planner(static_cast<Expr*>(stringToNode(constraints->check[index].ccbin)));
    }
    MemoryContextSwitchTo(previous);
    if (invalidations != invalidations_seen) {
        MemoryContextDelete(context);
        return nullptr;
    }
    bool found = false;
    Entry* const entry = static_cast<Entry*>(hash_search(entries, &relation_id, HASH_ENTER, &found));
    Assert(!found);
    entry->context = context;
    entry->count = count;
    entry->names = names;
    entry->planned = planned;
    MemoryContextSetParent(context, CacheMemoryContext);
    return planned;
}

void executor_start(QueryDesc* query, int flags) {
    if (previous_executor_start != nullptr) {
        previous_executor_start(query, flags);
    } else {
        standard_ExecutorStart(query, flags);
    }
    if ((flags & EXEC_FLAG_EXPLAIN_ONLY) != 0) return;
    EState* const state = query->estate;
    if (state == nullptr || state->es_opened_result_relations == NIL) return;
    const Oid schema = get_namespace_oid("corebank", true);
    if (schema == InvalidOid) return;
    ListCell* cell = nullptr;
    foreach (cell, state->es_opened_result_relations) {
        ResultRelInfo* const result = static_cast<ResultRelInfo*>(lfirst(cell));
        const Relation relation = result->ri_RelationDesc;
        const TupleConstr* const constraints = relation->rd_att->constr;
        if (constraints == nullptr || constraints->num_check == 0 || result->ri_ConstraintExprs != nullptr) continue;
        if (RelationGetNamespace(relation) != schema) continue;
        Expr** const planned = planned_checks(relation);
        if (planned == nullptr) continue;
        // What ExecRelCheck would have built, in the statement's memory. The
        // ExprStates point into the expression they were built from, so each
        // statement has its own copy: an invalidation during the statement
        // may free the kept one.
        const MemoryContext previous = MemoryContextSwitchTo(state->es_query_cxt);
        ExprState** const states = static_cast<ExprState**>(palloc(sizeof(ExprState*) * constraints->num_check));
        for (int index = 0; index < constraints->num_check; ++index)
            states[index] = ExecInitExpr(static_cast<Expr*>(copyObjectImpl(planned[index])), nullptr);
        MemoryContextSwitchTo(previous);
        result->ri_ConstraintExprs = states;
    }
}

}  // namespace

void install() {
    Assert(entries == nullptr);
    HASHCTL control;
    std::memset(&control, 0, sizeof control);
    control.keysize = sizeof(Oid);
    control.entrysize = sizeof(Entry);
    control.hcxt = CacheMemoryContext;
    entries = hash_create("corebank check constraints", initial_tables, &control,
                          HASH_ELEM | HASH_BLOBS | HASH_CONTEXT);
    CacheRegisterRelcacheCallback(on_relcache, PointerGetDatum(nullptr));
    CacheRegisterSyscacheCallback(PROCOID, on_syscache, PointerGetDatum(nullptr));
    CacheRegisterSyscacheCallback(TYPEOID, on_syscache, PointerGetDatum(nullptr));
    previous_executor_start = ExecutorStart_hook;
    ExecutorStart_hook = executor_start;
}

int tables_cached() {
    if (entries == nullptr) return 0;
    int count = 0;
    HASH_SEQ_STATUS status;
    hash_seq_init(&status, entries);
    while (hash_seq_search(&status) != nullptr) ++count;
    return count;
}

}  // namespace corebank::pg::check_constraints
