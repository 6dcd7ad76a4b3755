#!/usr/bin/env bash
# Recovery lag, against examples/payment-core.
#
# The tax API slows to 8 s for the fault window; as it does, the drill
# injects 5 calls in the tax lane that open a transaction, lock an order
# row and sit in it, ignoring their deadline (the service's -faults, a
# debug endpoint): after the API recovers they still hold the tax lane's 5
# PostgreSQL connections. The lane reports ALERT_BULKHEAD_RECOVERY_LAG 10 s
# after the API's first normal answer, and the pool reset
# (Executor.ResetOnRecoveryLag with lanepgx.Pool.ResetPool) ends their
# sessions; the drill times the lane's return. The contrast run is the same
# service without the reset (-no-lag-reset). Report, chart and logs in the
# output directory; exit 0 only on the targets; the last line starts with "drill:".
#
#   scripts/drills/run_recovery_lag_test.sh            # full: 30 s fault, 25% of the spec's rates (~4 min)
#   scripts/drills/run_recovery_lag_test.sh --short    # CI: 15 s fault, 15% (~2 min + build)
#
# Environment as run_bulkhead_recovery_test.sh; DRILL_OUT [examples/payment-core/drill-out/recovery-lag].
set -euo pipefail
. "$(dirname "$0")/lib.sh"
rc=0
run_drill "$example/drill-out/recovery-lag" recovery-lag "$@" || rc=$?
exit "$rc"
