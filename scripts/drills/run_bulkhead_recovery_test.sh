#!/usr/bin/env bash
# The bulkhead recovery drill of the payment core's spec (docs/ARCHITECTURE.md),
# against examples/payment-core.
#
# Builds the service, the fake dependencies and the drill, then runs the
# drill: the same open-model load (vegeta) against the "before" mode (one
# shared worker pool and DB pool, as in the tax-API incident) and the bulkhead mode,
# with the tax API slowed to 8,000 ms for the fault window. It prints the
# per-lane, per-phase report and the before/after table, writes
# report.txt, drill.png and the processes' logs to the output directory,
# and exits 0 only if bulkhead mode meets the spec's targets (1 if not, 2
# if the drill could not run). The last line starts with "drill:".
#
#   scripts/drills/run_bulkhead_recovery_test.sh            # full: 120 s fault, 25% of the spec's rates (~6 min)
#   scripts/drills/run_bulkhead_recovery_test.sh --short    # CI: 15 s fault, 15% of the rates (~70 s + build)
#   ... --scale=0.5 --out=/tmp/drill --modes=bulkhead       # see: drill -help
#
# Environment: PAYMENT_CORE_DSN [postgres://postgres@127.0.0.1:5432/test?sslmode=disable],
# DRILL_OUT [examples/payment-core/drill-out]. Everything listens on 127.0.0.1
# (service 18080, fakes 19101/19201/19301).
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rc=0
run_drill "$example/drill-out" tax-slow "$@" || rc=$?
exit "$rc"
