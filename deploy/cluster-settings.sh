# shellcheck shell=bash
# deploy/cluster-settings.sh: the settings of the embedded PostgreSQL cluster,
# sourced by ./corebank (passed at every start of var/pg) and by bench/lib.sh
# (the benchmarks' throwaway clusters run with what ./corebank up ships, issue
# 12 part 5). One definition, so that a benchmark cannot drift from the product.

# pgaudit (Debian postgresql-15-pgaudit) writes an "AUDIT:" line to the server
# log for every statement of every role but corebank_app (whose pgaudit.log is
# 'none', set by the extension): what DBAs and report users do in SQL
# (docs/security.md, "Auditing what DBAs do in SQL"). Catalog-only queries
# (psql's \d) are left out, one line per relation touched, bind parameters not
# logged; the log line names the user and database, which AUDIT lines do not.
readonly PG_AUDIT_SETTINGS="-c shared_preload_libraries=pgaudit -c pgaudit.log=read,write,ddl,role,misc_set \
-c pgaudit.log_catalog=off -c pgaudit.log_relation=on -c pgaudit.log_parameter=off \
-c log_line_prefix='%m [%p] %q%u@%d '"

# Settings of the embedded cluster, passed at every start so that a change
# here reaches existing clusters too. fsync and synchronous_commit keep their
# durable defaults on purpose: this cluster holds real data.
readonly PG_EMBEDDED_SETTINGS="-c max_connections=200 -c shared_buffers=256MB $PG_AUDIT_SETTINGS"
