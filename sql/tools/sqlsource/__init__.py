"""sqlsource: the SQL sources of corebank by domain (docs/design/sql-layout.md).

Released scripts are assembled from templates (sql/releases/*.sql.in) whose
#include lines name frozen snapshots (sql/<domain>/<object>/<version>.sql).
"""
