#!/usr/bin/env bash
# Shared ceilings: isolation claimed only after testing the ceilings the
# lanes share — descriptors and CPU — against examples/payment-core.
#
# 1. Descriptors: the service runs under prlimit --nofile (default 400)
#    while the tax API accepts connections and stalls (60 s); before mode,
#    then bulkhead mode with its per-lane outbound socket caps. Target:
#    bulkhead mode never runs out of descriptors and card_auth is served.
# 2. CPU: the service pinned to one core (taskset, GOMAXPROCS 1) with the
#    tax API at 8 s; before mode, then bulkhead mode. The lanes bound
#    concurrency, connections and sockets, not CPU: the report says what
#    card_auth's latency does when the lanes share one core.
#
# Two reports, charts and logs under the output directory (fd/, cpu/);
# exit 0 only if both met their targets; the last line starts with "drill:".
#
#   scripts/drills/run_shared_ceilings_test.sh            # full: 60 s faults, 25% of the spec's rates (~8 min)
#   scripts/drills/run_shared_ceilings_test.sh --short    # CI: 15 s faults, 15% (~2.5 min + build)
#   ... --nofile=384   # another descriptor limit (the fd part only)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
need prlimit taskset
out="${DRILL_OUT:-$example/drill-out/ceilings}"
fdargs=() cpuargs=()
for a in "$@"; do
	case "$a" in
	--nofile=*|-nofile=*) fdargs+=("$a") ;;
	--core=*|-core=*) cpuargs+=("$a") ;;
	*) fdargs+=("$a"); cpuargs+=("$a") ;;
	esac
done
mkdir -p "$out"
fd=0 cpu=0
DRILL_OUT="$out/fd" run_drill "$out/fd" fd-ceiling "${fdargs[@]}" | tee "$out.fd.last" || fd=$?
DRILL_OUT="$out/cpu" run_drill "$out/cpu" cpu-ceiling "${cpuargs[@]}" | tee "$out.cpu.last" || cpu=$?
fdl=$(tail -n 1 "$out.fd.last"); cpul=$(tail -n 1 "$out.cpu.last")
rm -f "$out.fd.last" "$out.cpu.last"
rc=$(( fd > cpu ? fd : cpu ))
status=PASS
[ "$rc" -eq 0 ] || status=FAIL
echo "drill: $status shared ceilings | fd: ${fdl#drill: } | cpu: ${cpul#drill: }"
exit "$rc"
