#!/usr/bin/env bash
# Per-tenant admission (bulkhead/tenant) beside the lane's own admission,
# interleaved: one test binary, ROUNDS rounds, each running every variant
# once, so all see the same machine load; then benchstat with the variants
# side by side, and the bytes per tracked tenant (10^6 tenants).
#
#   bench/tenant_admission.sh [ROUNDS]     # default 10; raw results in $BENCH_OUT [a temporary directory]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
rounds=${1:-10}
out=${BENCH_OUT:-$(mktemp -d)}
mkdir -p "$out"
(cd "$root/bulkhead" && go test -c -o "$out/tenant.test" ./tenant/)
: > "$out/admission.txt"
echo "machine load before: $(uptime)" >&2
for i in $(seq "$rounds"); do
	"$out/tenant.test" -test.run '^$' -test.bench 'BenchmarkAdmission' -test.benchmem -test.benchtime 1s -test.count 1 >> "$out/admission.txt"
done
"$out/tenant.test" -test.run '^$' -test.bench 'BenchmarkTrackedTenantBytes' -test.benchtime 1x -test.count 3 > "$out/bytes.txt"
echo "machine load after: $(uptime)" >&2
benchstat=(go run golang.org/x/perf/cmd/benchstat@v0.0.0-20260908200009-22c9c6c9d4da)
"${benchstat[@]}" -col /admit "$out/admission.txt"
"${benchstat[@]}" "$out/bytes.txt"
