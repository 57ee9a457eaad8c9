"""snapshot: exact row counts of every table of the corebank schema.

count(*) per table, not pg_stat n_live_tup (an estimate that lags). The
tables are listed from pg_tables at each snapshot, so a table created
meanwhile shows up as a change too.
"""


def row_counts(db, only=None):
    """{table: count(*)}; only: {table: SQL condition} counts just the rows that a request could write
    (the rest being what a background job writes meanwhile)."""
    only = only or {}
    tables = [row["tablename"] for row in
              db.rows("SELECT tablename FROM pg_tables WHERE schemaname = 'corebank' ORDER BY tablename")]
    return {table: db.scalar(f'SELECT count(*) FROM corebank."{table}" t WHERE {only.get(table, "true")}')
            for table in tables}


def changes(before, after, allowed):
    """{table: (before, after)} of tables whose count changed, except the allowed ones."""
    out = {}
    for table in sorted(set(before) | set(after)):
        if table in allowed:
            continue
        if before.get(table) != after.get(table):
            out[table] = (before.get(table), after.get(table))
    return out
