#!/usr/bin/env bash
# Shuffle sharding (bulkhead/shuffleshard with the lanehttp client).
#
# 1. The chapter's simulation: 100 nodes, 5 per tenant, 10,000 tenants; a
#    poison tenant kills its 5. How many other tenants lose all their
#    nodes, with shuffle sharding and with plain groups of 5, side by side.
# 2. Live: 100 loopback HTTP servers behind one lanehttp client that picks
#    each request's endpoint from its tenant's shard. The poison tenant's
#    requests crash every server they reach; then every other tenant sends
#    3 requests, each retried on its shard's other endpoints. Shuffle
#    sharding, then plain groups.
#
# Report in the output directory; exit 0 only if, with shuffle sharding, no
# other tenant lost all its nodes in the simulation and, live, every other
# tenant kept >= 1 healthy endpoint and was served (and plain groups, the
# contrast, lost the poison tenant's group); the last line starts with "drill:".
#
#   scripts/drills/run_shuffle_shard_test.sh            # full: 2,000 live tenants (seconds + build)
#   scripts/drills/run_shuffle_shard_test.sh --short    # CI: 300
#
# Environment: DRILL_OUT [examples/payment-core/drill-out/shuffle-shard].
set -euo pipefail
. "$(dirname "$0")/lib.sh"
bin=$(mktemp -d)
trap 'rm -rf "$bin"' EXIT
echo "building the shuffle-shard drill..." >&2
(cd "$root/bulkhead" && go build -o "$bin/shuffleshard" ./internal/drills/shuffleshard)
rc=0
"$bin/shuffleshard" -out "${DRILL_OUT:-$example/drill-out/shuffle-shard}" "$@" || rc=$?
exit "$rc"
