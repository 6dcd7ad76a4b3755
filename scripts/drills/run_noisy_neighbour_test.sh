#!/usr/bin/env bash
# Noisy neighbour, against examples/payment-core.
#
# Merchants share the service's reports lane (-reports). Ten calm merchants
# ask for week-long reports at a steady rate; then one merchant floods with
# 90-day reports, each 13 times as costly: a batch client with 64 workers
# working off a backlog of 100 times a calm merchant's reports, waiting out
# each Retry-After with jitter (--flood=rate instead: 100 times a calm merchant's rate,
# open loop, never backing off). The same load runs twice: the lane alone, then with per-merchant quotas
# (-tenant-quotas: bulkhead/tenant, 4 reports at once, a token bucket of
# report-days, fair share). Targets: without quotas every calm merchant's
# p99 rises; with them the calm merchants' p99 during the flood stays within
# 10% of their calm baseline, none of them is refused, and the flooder gets
# 429 with Retry-After and a problem body naming the quota. Report, chart
# and logs in the output directory; exit 0 only on the targets; the last
# line starts with "drill:".
#
#   scripts/drills/run_noisy_neighbour_test.sh            # full: 30 s calm, 30 s flood (~2.5 min)
#   scripts/drills/run_noisy_neighbour_test.sh --short    # CI: 30 s calm, 20 s flood (~2 min + build)
#
# Environment: PAYMENT_CORE_DSN; DRILL_OUT [examples/payment-core/drill-out/noisy-neighbour].
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rc=0
run_drill "$example/drill-out/noisy-neighbour" noisy-neighbour "$@" || rc=$?
exit "$rc"
