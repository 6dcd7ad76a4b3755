#!/usr/bin/env bash
# Fraud vendor outage (docs/ARCHITECTURE.md, "Breakers and bulkheads"),
# against examples/payment-core.
#
# The fraud service answers 503 to everything for the fault window, then
# recovers. The same open-model load as the recovery drill, before mode
# (no breaker, no queue: the outage's failures are errors) then bulkhead
# mode, where the fraud lane's breaker (lanebreaker, the spec's terms)
# opens, fraud scoring answers 202 pending_fraud at once and queues the
# score, half-open probes close the breaker after recovery and the queue
# drains at a limited rate. Every pending_fraud answer is matched with a
# score done after recovery. Report, chart and logs in the output
# directory; exit 0 only on the targets; the last line starts with "drill:".
#
#   scripts/drills/run_fraud_outage_test.sh            # full: 60 s outage, 25% of the spec's rates (~5.5 min)
#   scripts/drills/run_fraud_outage_test.sh --short    # CI: 15 s outage, 15% (~2 min + build)
#
# Environment as run_bulkhead_recovery_test.sh; DRILL_OUT [examples/payment-core/drill-out/fraud-outage].
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rc=0
run_drill "$example/drill-out/fraud-outage" fraud-outage "$@" || rc=$?
exit "$rc"
