#!/usr/bin/env bash
# bench/run.sh: every benchmark in turn (./corebank bench runs this).
#   ingest   bench/ingest/run.sh    500-event batches against plain INSERT
#   postings bench/postings/run.sh  HTTP transfers against pgbench tpcb-like
#   identity bench/identity/run.sh  logins, refreshes, token verifications
#   batch    bench/batch/run.sh     8,000-transfer batches against plain INSERT
#                                   and single transfers
#   history  bench/history/run.sh   reads and writes at 1,000,000 entries against 100
#                                   entries and an empty journal
#   scoping  bench/scoping/run.sh   transfers and a teller's reads with branch scoping
#                                   on against off
# Each starts and removes its own cluster and corebankd and finishes in under
# five minutes on 2 cores. The extension is installed once, here. At the end
# the last line (the ratios) of each is repeated, with its wall time.
#
# Usage: bench/run.sh [--build-dir DIR] [--no-install] [--keep] [NAME...]
# Exit status: 0 when every benchmark ran (whatever the ratios), else 1.
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir=$ROOT/build
install=1
pass=()
names=()
while (($#)); do
    case $1 in
        --build-dir) build_dir=$2; shift 2 ;;
        --no-install) install=0; shift ;;
        --keep) pass+=(--keep); shift ;;
        -h | --help) sed -n '2,17p' "${BASH_SOURCE[0]}"; exit 0 ;;
        ingest | postings | identity | batch | history | scoping) names+=("$1"); shift ;;
        *) echo "bench/run.sh: unknown argument $1" >&2; exit 2 ;;
    esac
done
((${#names[@]})) || names=(ingest postings identity batch history scoping)

# An incremental build: a stale corebankd refuses a newer corebank.conf.
echo "==> building corebankd and the extension in $build_dir (incremental)" >&2
if [[ ! -f $build_dir/CMakeCache.txt ]]; then
    cmake -S "$ROOT" -B "$build_dir" -DCMAKE_BUILD_TYPE=Release >/dev/null || { echo "bench/run.sh: cmake failed" >&2; exit 1; }
fi
cmake --build "$build_dir" -j "$(nproc)" --target corebankd corebank corebank_sql >/dev/null || { echo "bench/run.sh: build failed" >&2; exit 1; }
if ((install)); then
    echo "==> installing the extension" >&2
    cmake --install "$build_dir" >/dev/null || { echo "bench/run.sh: install failed" >&2; exit 1; }
fi

status=0
summary=()
for name in "${names[@]}"; do
    printf '\n######## %s ########\n' "$name"
    out=$(mktemp)
    t0=$SECONDS
    bash "$ROOT/bench/$name/run.sh" --build-dir "$build_dir" --no-install ${pass[@]+"${pass[@]}"} | tee "$out"
    rc=${PIPESTATUS[0]}
    last=$(grep -E '^(ratio|ratios)' "$out" | tail -n 1)
    rm -f "$out"
    # bench/ingest/run.sh exits 1 when its ratio misses the target: that is a result, not a failure.
    if [[ -z $last ]]; then status=1; last="FAILED (exit $rc)"; fi
    summary+=("$(printf '%-9s %4d s  %s' "$name" "$((SECONDS - t0))" "$last")")
done
printf '\n######## summary ########\n'
printf '%s\n' "${summary[@]}"
exit "$status"
