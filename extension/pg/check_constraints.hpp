// check_constraints.hpp: the CHECK constraints of the corebank tables,
// planned once per backend instead of once per statement (issue 12 part 5).
//
// Why: PostgreSQL 15 builds a table's CHECK expressions from their stored
// text in every statement that writes the table (ExecRelCheck: stringToNode,
// then expression_planner, then ExecInitExpr, kept only for that statement).
// The posting engine's one write statement writes eight tables with 25 CHECK
// constraints (transactions alone has ten); rebuilding them was about a tenth
// of a group call's backend CPU and a seventh of a lone posting's, measured
// by dropping them on a kept bench cluster (docs/performance.md, "Issue 12's
// goals on 2026-11-28, fourth session").
//
// What: an ExecutorStart hook. After PostgreSQL has started the executor, each
// result relation of the statement that lies in the corebank schema and has
// CHECK constraints gets its constraint ExprStates from the planned
// expressions this backend keeps for the table, so ExecRelCheck finds them
// built and only evaluates them. The planned expressions are exactly what
// ExecRelCheck would build (stringToNode of the same text, expression_planner),
// kept in a memory context of their own per table; what remains per
// statement is a copy of them (the statement's ExprStates point into it) and
// ExecInitExpr. The constraints, their names, their order, their
// errors and when they run are PostgreSQL's own, unchanged.
//
// Invalidation: a table's entry is dropped on any relcache invalidation of it
// (ALTER TABLE ... ADD/DROP CONSTRAINT sends one), and every entry on a
// relcache reset or a change to any function or type (a CHECK may call a
// function that expression_planner inlined or folded); an entry is also
// rebuilt whenever its constraints' count or names differ from the relcache's.
#pragma once

namespace corebank::pg::check_constraints {

// Installs the hook and the invalidation callbacks; called once from
// _PG_init. May ereport (it runs with no C++ object alive).
void install();

// Tables whose planned CHECK expressions this backend holds now (for tests).
int tables_cached();

}  // namespace corebank::pg::check_constraints
