#!/usr/bin/env bash
# The repository's one test command: every module, the end-to-end tests, and
# the tests that talk to the real PostgreSQL and Redis on this machine.
#
# Environment (defaults in brackets):
#   BHLINT_PG_DSN    [postgres://postgres@127.0.0.1:5432/test?sslmode=disable]
#   BHLINT_REDIS_ADDR [127.0.0.1:6379]
#   BHLINT_REQUIRE_SERVICES=1  a missing server fails the tests instead of skipping them (CI sets it)
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== vet and format"
unformatted=$(gofmt -l $(git ls-files '*.go' | grep -v '/testdata/src/') 2>/dev/null || true)
if [ -n "$unformatted" ]; then
	echo "gofmt would change:"; echo "$unformatted"; exit 1
fi
go vet ./...
staticcheck="go run honnef.co/go/tools/cmd/staticcheck@v0.8.2"
$staticcheck ./...
# The documented GitHub Actions gate: checked with actionlint (it cannot run here).
go run github.com/rhysd/actionlint/cmd/actionlint@v1.7.12 .github/workflows/bhlint.yml

echo "== linter module (analyzers, driver, end-to-end)"
go test -count=1 ./...

if [ -f bulkhead/go.mod ]; then
	echo "== runtime module (bulkhead)"
	(cd bulkhead && go vet ./... && $staticcheck ./... && go test -race -count=1 ./...)
fi

echo "== example (builds, its own tests)"
(cd examples/payment-core && go vet ./... && $staticcheck ./... && go test -count=1 ./...)

echo "== robustness: bhlint over std packages, this repo and dependencies (no panic, no internal error)"
./scripts/robustness/run.sh --ci
