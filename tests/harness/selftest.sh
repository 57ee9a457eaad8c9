#!/usr/bin/env bash
# tests/harness/selftest.sh: check the count parsers of tests/harness/parse.sh
# against real outputs of ctest 3.25, pg_prove 3.36 and Python 3.11 unittest
# (captured from deliberately failing suites, trimmed to the lines that
# matter). Run it after changing parse.sh: bash tests/harness/selftest.sh
set -euo pipefail
here=$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")
# shellcheck source=tests/harness/parse.sh
source "$here/parse.sh"

sample=$(mktemp)
trap 'rm -f "$sample"' EXIT
checks=0
failures=0

# expect NAME PARSER RC WANT: parse the sample on stdin, compare with WANT.
expect() {
    local name=$1 parser=$2 rc=$3 want=$4 have
    cat >"$sample"
    have=$("$parser" "$sample" "$rc")
    checks=$((checks + 1))
    if [[ $have == "$want" ]]; then
        printf 'ok   %s\n' "$name"
    else
        printf 'FAIL %s: have "%s", want "%s"\n' "$name" "$have" "$want"
        failures=$((failures + 1))
    fi
}

expect "ctest all pass" parse_ctest 0 "12 0 0" <<'EOF'
12/12 Test #12: Money.RoundsHalfEven .............   Passed    0.00 sec

100% tests passed, 0 tests failed out of 12

Total Test time (real) =   0.05 sec
EOF

expect "ctest failure and skip" parse_ctest 8 "2 1 1" <<'EOF'
3/4 Test #3: A.bad ............................***Failed    0.00 sec
[  FAILED  ] 1 test, listed below:
 1 FAILED TEST
4/4 Test #4: A.skip ...........................***Skipped   0.00 sec

75% tests passed, 1 tests failed out of 4

Total Test time (real) =   0.00 sec

The following tests did not run:
	  4 - A.skip (Skipped)

The following tests FAILED:
	  3 - A.bad (Failed)
Errors while running CTest
EOF

expect "ctest crashed before its summary" parse_ctest 2 "0 1 0" <<'EOF'
Test project /work/main/build
Segmentation fault
EOF

expect "ctest no tests" parse_ctest 0 "0 0 0" <<'EOF'
Test project /work/main/build
No tests were found!!!
EOF

expect "pg_prove all pass" parse_prove 0 "3 0 0" <<'EOF'
t/a_pass.sql .. ok
All tests successful.
Files=1, Tests=3,  0 wallclock secs ( 0.01 usr  0.00 sys +  0.01 cusr  0.00 csys =  0.02 CPU)
Result: PASS
EOF

# b_fail fails 2 of 4; c_die dies after 1 of 5; d_plan runs 1 of 5 planned.
expect "pg_prove failures, a died file and a bad plan" parse_prove 1 "7 4 0" <<'EOF'
t/a_pass.sql .. ok
t/b_fail.sql ..
not ok 2 - b
# Failed test 2: "b"
Failed 2/4 subtests
psql:t/c_die.sql:2: ERROR:  function nosuchfunc() does not exist
t/c_die.sql ...
Dubious, test returned 3 (wstat 768, 0x300)
Failed 4/5 subtests
t/d_plan.sql ..
# Looks like you planned 5 tests but ran 1
Failed 4/5 subtests

Test Summary Report
-------------------
t/b_fail.sql (Wstat: 0 Tests: 4 Failed: 2)
  Failed tests:  2-3
t/c_die.sql (Wstat: 768 (exited 3) Tests: 1 Failed: 0)
  Non-zero exit status: 3
  Parse errors: Bad plan.  You planned 5 tests but ran 1.
t/d_plan.sql (Wstat: 0 Tests: 1 Failed: 0)
  Parse errors: Bad plan.  You planned 5 tests but ran 1.
Files=4, Tests=9,  0 wallclock secs ( 0.01 usr  0.00 sys +  0.05 cusr  0.01 csys =  0.07 CPU)
Result: FAIL
EOF

expect "pg_prove could not connect" parse_prove 2 "0 1 0" <<'EOF'
psql: error: connection to server on socket "/tmp/x/.s.PGSQL.55001" failed: No such file or directory
EOF

expect "unittest ok with skip and expected failure" parse_unittest 0 "3 0 1" <<'EOF'
test_1 (test_a.T.test_1) ... ok
test_3 (test_a.T.test_3) ... skipped 'later'
----------------------------------------------------------------------
Ran 4 tests in 0.000s

OK (skipped=1, expected failures=1)
EOF

expect "unittest failure, error, unexpected success" parse_unittest 1 "1 3 1" <<'EOF'
FAIL: test_2 (test_b.T.test_2)
----------------------------------------------------------------------
Ran 5 tests in 0.000s

FAILED (failures=1, errors=1, skipped=1, unexpected successes=1)
EOF

expect "unittest import error" parse_unittest 1 "3 1 1" <<'EOF'
ERROR: test_c (unittest.loader._FailedTest.test_c)
ImportError: Failed to import test module: test_c
----------------------------------------------------------------------
Ran 5 tests in 0.000s

FAILED (errors=1, skipped=1, expected failures=1)
EOF

expect "unittest plain OK" parse_unittest 0 "7 0 0" <<'EOF'
----------------------------------------------------------------------
Ran 7 tests in 1.204s

OK
EOF

expect "unittest killed by timeout" parse_unittest 124 "0 1 0" <<'EOF'
test_1 (test_slow.T.test_1) ... ok
test_2 (test_slow.T.test_2) ...
EOF

printf '%d passed, %d failed\n' "$((checks - failures))" "$failures"
((failures == 0))
