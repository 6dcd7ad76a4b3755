#!/usr/bin/env bash
# Fair claim: fair-share job claiming (bulkhead/jobclaim) on the real
# PostgreSQL, the chapter's table reproduced.
#
# Six workers run 100 ms jobs; tenant A enqueues 40, then B and C 5 each;
# once per claim rule (FIFO, soft cap, fair share, hard cap; cap 3) the
# drill reports B's first job start, A's most jobs running at once and when
# A's 40 were done. Then the same rules with 10^5 jobs of 100 tenants
# queued (9 in 10 by one tenant), B and C arriving once every queued tenant
# has been served: B's first start, the big tenant's most running, and the
# claim's p50/p99 (BenchmarkClaim in bulkhead/jobclaim is the measurement of
# the claim itself). Report in the output directory; exit 0 only on the
# targets (FIFO makes B wait >= 0.5 s; fair share starts B within 0.3 s,
# 0.5 s in the large run, and gives A every worker while it is alone; the
# hard cap is never exceeded; no job runs twice); the last line starts
# with "drill:".
#
#   scripts/drills/run_fair_claim_test.sh            # full: 10^5 queued jobs (~2 min + build)
#   scripts/drills/run_fair_claim_test.sh --short    # CI: 10^4 (~1 min + build)
#
# Environment: BHLINT_PG_DSN [postgres://postgres@127.0.0.1:5432/test?sslmode=disable];
# DRILL_OUT [examples/payment-core/drill-out/fair-claim].
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
echo "building the fair-claim drill..." >&2
(cd "$root/bulkhead" && go build -o "$bin/fairclaim" ./internal/drills/fairclaim)
echo "machine load before the drill: $(uptime)" >&2
rc=0
"$bin/fairclaim" -out "${DRILL_OUT:-$example/drill-out/fair-claim}" "$@" || rc=$?
exit "$rc"
