#!/usr/bin/env bash
# tests/faults/run.sh: the crash and fault tests (tests/faults/test_*.py),
# called by `./corebank test` (tests/harness/suite.sh, step_faults) after the
# e2e step, or by hand against a throwaway cluster. Output is unittest's
# verbose output, ending with "Ran N tests" and OK/FAILED for parse_unittest.
#
# Environment (all set by step_faults):
#   CB_DATABASE_URL   superuser conninfo of the fault database (checks, CLI)
#   FAULT_APP_URL     corebankd's DATABASE_URL (corebank_app) for that database
#   FAULT_PORTS       eight free TCP ports: two corebankd processes, four each
#   FAULT_PG_DATA FAULT_PG_SOCK FAULT_PG_PORT FAULT_PG_LOG FAULT_PG_SETTINGS
#                     FAULT_PG_BIN: the cluster, so that the tests can kill -9
#                     and restart it exactly as the harness started it
#   CB_CLI FAULT_CONF_FILE CORE_DATA_KEY_FILE CORE_MAIL_DIR: the corebankd
#                     command line (CB_CLI serve --config FAULT_CONF_FILE)
#   FAULT_TMP         where the corebankd logs go
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export CB_ROOT=${CB_ROOT:-$(cd "$here/../.." && pwd)} PYTHONDONTWRITEBYTECODE=1
cd "$CB_ROOT"
exec timeout --foreground --kill-after=10 "${FAULT_TIMEOUT_S:-90}" \
    /usr/bin/python3 -m unittest discover -s tests/faults -p 'test_*.py' -v ${FAULT_FILTER:+-k "$FAULT_FILTER"}
