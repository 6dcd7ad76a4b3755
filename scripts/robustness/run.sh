#!/usr/bin/env bash
# scripts/robustness/run.sh — bhlint must never crash or hang.
#
#   ./scripts/robustness/run.sh        # the standard library (std), this repository's modules,
#                                      # and every module of bhlint's dependency graph
#   ./scripts/robustness/run.sh --ci   # a bounded subset for CI: net/http, net, database/sql,
#                                      # encoding/json, this repository, pgx, x/sync
#
# It builds bhlint, runs it on each package set, and fails when the output shows a panic, an
# "internal error" (guard.Wrap's message for a recovered analyzer panic), or a run that did not
# finish within its time limit. Findings (exit 1) are fine: this checks the tool, not the code.
# Packages that do not load (exit 2 with go's own build errors, e.g. a dependency's test needing
# a module that is not in the module cache) are listed, not counted as crashes.
#
# Offline: the dependency modules are analysed from the module cache, through a scratch module
# that requires each of them at the version `go list -m all` selects (GOPROXY=off, GOSUMDB=off,
# -mod=mod: go.sum is filled from the cache). A module whose source is not in the cache is
# reported as skipped. Set ROBUSTNESS_ONLINE=1 to let go fetch it from GOPROXY instead.
#
# Environment: ROBUSTNESS_TIMEOUT per run in seconds (default 1800, --ci 300).
set -euo pipefail

mode=full
case "${1:-}" in
--ci) mode=ci ;;
"") ;;
*) echo "usage: $0 [--ci]" >&2; exit 2 ;;
esac

root=$(cd "$(dirname "$0")/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
bin="$work/bhlint"
timeout_s=${ROBUSTNESS_TIMEOUT:-$([[ $mode == ci ]] && echo 300 || echo 1800)}
export GOFLAGS="${GOFLAGS:-} -buildvcs=false"

echo "building bhlint" >&2
go build -o "$bin" "$root/cmd/bhlint"
if [[ $mode == full ]]; then
	# A fresh identity (go vet keys cached results on the tool's hash), so every package is
	# analysed now rather than replayed from the cache of an earlier run.
	head -c 16 /dev/urandom >>"$bin"
fi

summary="$work/summary"
printf '%-40s %9s %9s %8s  %s\n' "set" "packages" "findings" "seconds" "result" >"$summary"

# check LABEL DIR PATTERN... runs bhlint -format=json on the patterns in DIR.
check() {
	local label=$1 dir=$2
	shift 2
	local out="$work/out.json" err="$work/err.txt" rc=0 start=$SECONDS
	echo "== $label: bhlint $*" >&2
	(cd "$dir" && timeout "$timeout_s" "$bin" -format=json "$@") >"$out" 2>"$err" || rc=$?
	local secs=$((SECONDS - start))
	local pkgs findings result
	pkgs=$(cd "$dir" && go list -e "$@" 2>/dev/null | wc -l || true)
	findings=$(grep -c '"analyzer":' "$out" || true)
	if [[ $rc == 124 ]]; then
		result="HANG (no result within ${timeout_s}s)"
	elif grep -qE 'internal error|panic:|goroutine [0-9]+ \[' "$out" "$err"; then
		result="CRASH"
	elif [[ $rc == 0 || $rc == 1 ]]; then
		result="ok"
	elif [[ $rc == 2 ]] && grep -q '^# ' "$err"; then
		result="ok (some packages do not load: $(grep -c '^# ' "$err"))"
	else
		result="ERROR (exit $rc)"
	fi
	case $result in
	ok) ;;
	ok*) sed 's/^/    /' "$err" | head -20 >&2 ;;
	*) sed 's/^/    /' "$err" | head -60 >&2 ;;
	esac
	printf '%-40s %9s %9s %8s  %s\n' "$label" "$pkgs" "$findings" "$secs" "$result" | tee -a "$summary" >&2
}

# deps_module writes a scratch module requiring every module of bhlint's dependency graph at its
# selected version (offline: every one whose source is in the module cache), and prints its
# directory.
deps_module() {
	local dir="$work/deps"
	mkdir -p "$dir"
	{
		echo "module robustness.invalid/deps"
		echo
		echo "go 1.26"
		echo
		while read -r mod ver; do
			if [[ -n "${ROBUSTNESS_ONLINE:-}" ]] || in_cache "$mod" "$ver"; then
				echo "require $mod $ver"
			fi
		done < <(cd "$root" && go list -m -f '{{if not .Main}}{{.Path}} {{.Version}}{{end}}' all)
	} >"$dir/go.mod"
	echo "package deps" >"$dir/deps.go"
	echo "$dir"
}

# in_cache MODULE VERSION: is the module's source in the module cache?
in_cache() {
	local escaped
	escaped=$(sed -E 's/([A-Z])/!\L\1/g' <<<"$1")
	[[ -d "$(go env GOMODCACHE)/$escaped@$2" ]]
}

# check_module LABEL DIR MODULE VERSION analyses MODULE/... from the scratch module in DIR.
check_module() {
	local label=$1 dir=$2 mod=$3 ver=$4
	if [[ -z "${ROBUSTNESS_ONLINE:-}" ]] && ! in_cache "$mod" "$ver"; then
		printf '%-40s %9s %9s %8s  %s\n' "$label" "-" "-" "-" "skipped (not in the module cache)" | tee -a "$summary" >&2
		return
	fi
	(
		export GOFLAGS="$GOFLAGS -mod=mod"
		if [[ -z "${ROBUSTNESS_ONLINE:-}" ]]; then
			export GOPROXY=off GOSUMDB=off
		fi
		# Leave out the packages that cannot load offline (they, or their tests, import a module
		# whose source is not in the cache): go vet would stop at them before analysing anything.
		local broken loadable
		broken=$(cd "$dir" && go list -e -test -f '{{if or .Error .DepsErrors}}{{.ImportPath}}{{end}}' "$mod/..." 2>/dev/null |
			sed -E 's/ \[.*//; s/\.test$//; s/_test$//' | sort -u)
		loadable=$(cd "$dir" && go list -e "$mod/..." 2>/dev/null | grep -vxF -f <(echo "${broken:-/nothing/}") || true)
		if [[ -n "$broken" ]]; then
			label="$label (-$(wc -l <<<"$broken") unloadable)"
			echo "    left out, not loadable offline: $(echo $broken)" >&2
		fi
		if [[ -z "$loadable" ]]; then
			printf '%-40s %9s %9s %8s  %s\n' "$label" "0" "-" "-" "skipped (no loadable package)" | tee -a "$summary" >&2
			return
		fi
		# shellcheck disable=SC2086 # one argument per package
		check "$label" "$dir" $loadable
	)
}

total_start=$SECONDS
if [[ $mode == ci ]]; then
	check "std: net/http net database/sql encoding/json" "$root" net/http net database/sql encoding/json
	check "bhlint (root module)" "$root" ./...
	check "pgx v5 (testdata/e2e/heldconn's)" "$root/testdata/e2e/heldconn" github.com/jackc/pgx/v5/...
	deps=$(deps_module)
	ver=$(cd "$root" && go list -m -f '{{.Version}}' golang.org/x/sync)
	check_module "golang.org/x/sync $ver" "$deps" golang.org/x/sync "$ver"
else
	check "std" "$root" std
	check "bhlint (root module)" "$root" ./...
	check "bhlint/bulkhead" "$root/bulkhead" ./...
	check "examples/payment-core" "$root/examples/payment-core" ./...
	deps=$(deps_module)
	while read -r mod ver; do
		check_module "$mod $ver" "$deps" "$mod" "$ver"
	done < <(cd "$root" && go list -m -f '{{if not .Main}}{{.Path}} {{.Version}}{{end}}' all)
	check "pgx v5 (testdata/e2e/heldconn's)" "$root/testdata/e2e/heldconn" github.com/jackc/pgx/v5/...
fi

echo >&2
cat "$summary"
crashes=$(grep -cE '  (CRASH|HANG|ERROR)' "$summary" || true)
echo "total: $((SECONDS - total_start))s, $crashes crash(es), hang(s) or error(s)"
[[ $crashes == 0 ]]
