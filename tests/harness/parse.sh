# shellcheck shell=bash
# tests/harness/parse.sh: count passed, failed and skipped tests in the
# output of the three test runners that `./corebank test` drives.
#
# Each parse_* function reads one captured log file plus the runner's exit
# code and prints one line "PASSED FAILED SKIPPED". They never trust a zero
# count on its own: when the runner failed but its summary line is missing
# or shows no failure (it crashed, or a file died before its plan), they
# report at least one failure, so a broken run can never look green.
# Sourced by the `corebank` script and by tests/harness/selftest.sh.

# parse_ctest LOG RC
# ctest ends with "83% tests passed, 2 tests failed out of 12"; tests listed
# under "The following tests did not run:" with "(Skipped)" are counted in
# the passed figure by ctest, so they are moved to skipped here.
parse_ctest() {
    local log=$1 rc=$2
    awk -v rc="$rc" '
        /tests passed, [0-9]+ tests? failed out of [0-9]+/ {
            for (i = 1; i <= NF; i++) {
                if ($i == "out" && $(i + 1) == "of") total = $(i + 2)
                if ($i ~ /^tests?$/ && $(i + 1) == "failed") failed = $(i - 1)
            }
            found = 1
        }
        /\(Skipped\)/ { skipped++ }
        END {
            if (!found) { print 0, (rc == 0 ? 0 : 1), 0; exit }
            if (rc != 0 && failed == 0) failed = 1
            passed = total - failed - skipped
            if (passed < 0) passed = 0
            print passed, failed, skipped + 0
        }' "$log"
}

# parse_prove LOG RC
# pg_prove (TAP::Harness) ends with "Files=N, Tests=M, ..." and "Result:".
# A failing file appears in the summary report as
# "FILE (Wstat: W Tests: T Failed: F)"; F is 0 when the file died or broke
# its plan, and then the file itself counts as one failure.
parse_prove() {
    local log=$1 rc=$2
    awk -v rc="$rc" '
        /^Files=[0-9]+, Tests=[0-9]+/ {
            total = $2; sub(/^Tests=/, "", total); sub(/,$/, "", total)
            found = 1
        }
        /\(Wstat: [0-9]+.* Tests: [0-9]+ Failed: [0-9]+\)/ {
            f = $0; sub(/.*Failed: /, "", f); sub(/\).*/, "", f)
            failed_tests += f
            failed += (f > 0 ? f : 1)
        }
        /^Result: FAIL/ { result_fail = 1 }
        END {
            if (!found) { print 0, (rc == 0 ? 0 : 1), 0; exit }
            if ((rc != 0 || result_fail) && failed == 0) failed = 1
            passed = total - failed_tests
            if (passed < 0) passed = 0
            print passed, failed + 0, 0
        }' "$log"
}

# parse_unittest LOG RC
# Python unittest ends with "Ran N tests in Ts" and then "OK", "OK (skipped=s)"
# or "FAILED (failures=a, errors=b, skipped=s, unexpected successes=u)".
# Expected failures count as passed; unexpected successes as failed.
parse_unittest() {
    local log=$1 rc=$2
    awk -v rc="$rc" '
        /^Ran [0-9]+ tests? in / { total = $2; found = 1; failed = 0; skipped = 0 }
        found && /^(OK|FAILED)( \(.*\))?$/ {
            line = $0
            sub(/^[A-Z]+ ?\(?/, "", line); sub(/\)$/, "", line)
            n = split(line, parts, /, /)
            for (i = 1; i <= n; i++) {
                split(parts[i], kv, "=")
                if (kv[1] == "failures" || kv[1] == "errors" || kv[1] == "unexpected successes") failed += kv[2]
                if (kv[1] == "skipped") skipped += kv[2]
            }
        }
        END {
            if (!found) { print 0, (rc == 0 ? 0 : 1), 0; exit }
            if (rc != 0 && failed == 0) failed = 1
            passed = total - failed - skipped
            if (passed < 0) passed = 0
            print passed, failed, skipped
        }' "$log"
}
