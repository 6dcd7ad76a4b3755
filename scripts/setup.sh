#!/usr/bin/env bash
# scripts/setup.sh — what the tests need besides Go and the source: the local
# PostgreSQL and Redis running, the real pre-commit, Graphviz, promtool and
# Neovim, the SARIF schema validator, a golangci-lint with bhlint's plugin
# compiled in, and a gopls with bhlint's analyzers for the editor tests. scripts/test.sh sources
# it, so `./scripts/test.sh` alone runs every test on a fresh machine.
#
#   eval "$(./scripts/setup.sh)"   # do the setup, then export the variables it sets,
#                                  # e.g. before running one package's tests by hand
#   source scripts/setup.sh && bhlint_setup   # what scripts/test.sh does
#
# Each step does nothing when its part is already there, so a second run takes
# seconds. Built binaries are kept in BHLINT_CACHE_DIR
# [${XDG_CACHE_HOME:-$HOME/.cache}/bhlint], keyed by what they are built from.
#
# Environment:
#   BHLINT_GOLANGCI_LINT  a golangci-lint with the plugin; set: used as is, not built
#   BHLINT_GOPLS          a gopls for the editor tests; set: used as is, not built
#   BHLINT_REQUIRE_SERVICES=1  a part that cannot be set up is a failure (CI), not a warning
#
# A step that cannot run here (no root for apt, no npm) says so and leaves the
# tests that need it to skip, with that reason in scripts/test.sh's summary;
# a step that tried and failed is listed in BHLINT_SETUP_FAILURES, which
# scripts/test.sh counts as failures.

BHLINT_SETUP_FAILURES=()

setup_note() { echo "setup: $*" >&2; }

# setup_failed NAME WHY: a step that tried and failed.
setup_failed() {
	setup_note "FAILED $1: $2"
	BHLINT_SETUP_FAILURES+=("$1: $2")
}

# setup_missing NAME WHY: a part that cannot be set up here. Under
# BHLINT_REQUIRE_SERVICES=1 that is a failure; otherwise its tests skip.
setup_missing() {
	if [ "${BHLINT_REQUIRE_SERVICES:-}" = 1 ]; then
		setup_failed "$1" "$2"
	else
		setup_note "$1: $2 (its tests will skip)"
	fi
}

# as_root CMD...: runs CMD as root, directly or through sudo without a
# password; fails if neither is possible.
as_root() {
	if [ "$(id -u)" = 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		sudo "$@"
	else
		return 1
	fi
}

# The servers the integration tests talk to, at the addresses of the tests'
# defaults. On a machine that has them installed but stopped, start them.
setup_services() {
	if [ -z "${BHLINT_PG_DSN:-}" ] && ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
		if command -v pg_ctlcluster >/dev/null 2>&1 && [ -d /etc/postgresql ]; then
			setup_note "starting PostgreSQL"
			local version
			version=$(find /etc/postgresql -mindepth 1 -maxdepth 1 -printf '%f\n' | sort -V | tail -1)
			as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start >&2 ||
				setup_missing postgresql "could not start PostgreSQL on 127.0.0.1:5432"
		else
			setup_missing postgresql "no PostgreSQL on 127.0.0.1:5432 (set BHLINT_PG_DSN)"
		fi
	fi
	if [ -z "${BHLINT_REDIS_ADDR:-}" ] && ! redis-cli -h 127.0.0.1 -p 6379 ping >/dev/null 2>&1; then
		if command -v redis-server >/dev/null 2>&1 && [ -d /var/lib/redis ]; then
			setup_note "starting Redis"
			as_root redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
				--dir /var/lib/redis --logfile /var/log/redis/ci.log >&2 ||
				setup_missing redis "could not start Redis on 127.0.0.1:6379"
		else
			setup_missing redis "no Redis on 127.0.0.1:6379 (set BHLINT_REDIS_ADDR)"
		fi
	fi
}

# Real tools the tests drive, from Debian: COMMAND:PACKAGE. pre-commit for the
# hook's integration test, Graphviz's dot to lay out the lane map's DOT,
# promtool to check the runtime's alerting rules, Neovim whose LSP client
# drives bhlint lsp. To add one, add a pair.
apt_tools=(pre-commit:pre-commit dot:graphviz promtool:prometheus nvim:neovim)

setup_apt_tools() {
	local pair missing=()
	for pair in "${apt_tools[@]}"; do
		command -v "${pair%%:*}" >/dev/null 2>&1 || missing+=("${pair#*:}")
	done
	[ ${#missing[@]} -eq 0 ] && return
	if ! command -v apt-get >/dev/null 2>&1; then
		setup_missing "${missing[*]}" "not installed, and there is no apt-get to install them"
		return
	fi
	if ! as_root true; then
		setup_missing "${missing[*]}" "not installed, and apt needs root (apt-get install ${missing[*]})"
		return
	fi
	setup_note "installing ${missing[*]} (apt)"
	if ! as_root apt-get update -qq >&2 ||
		! as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2; then
		setup_failed "${missing[*]}" "apt-get install ${missing[*]} failed"
	fi
}

# The SARIF schema validator (ajv and the official 2.1.0 schema), pinned by
# scripts/sarif/package-lock.json. npm ci again only when the lock changed.
setup_sarif() {
	local dir=scripts/sarif stamp=scripts/sarif/node_modules/.bhlint-lock.sha256
	if ! command -v npm >/dev/null 2>&1; then
		setup_missing sarif "npm is not installed (Debian: apt-get install npm)"
		return
	fi
	local want
	want=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
	[ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && return
	setup_note "npm ci --prefix $dir"
	if npm ci --prefix "$dir" --no-audit --no-fund >&2; then
		echo "$want" >"$stamp"
	else
		setup_failed sarif "npm ci --prefix $dir failed"
	fi
}

# cache_key LABEL [DIR...]: a hash of LABEL, the Go toolchain, the linter
# module's source (go.mod, go.sum, every non-test .go file outside testdata
# and the other modules) and the files under DIR: what a binary that compiles
# bhlint's analyzers in is built from.
cache_key() {
	local label=$1
	shift
	{
		echo "$label"
		go version
		{
			echo go.mod
			echo go.sum
			find . \( -path ./.git -o -path ./bulkhead -o -path ./examples -o -path ./scripts -o -path ./bench \
				-o -name testdata -o -name node_modules \) -prune -o -type f -name '*.go' ! -name '*_test.go' -print
			[ $# -eq 0 ] || find "$@" -type f
		} | LC_ALL=C sort | xargs -r sha256sum
	} | sha256sum | cut -c1-16
}

# build_cached NAME VAR SCRIPT KEY: sets VAR to a binary SCRIPT OUT builds,
# kept in the cache under KEY; VAR already set means the user chose one.
build_cached() {
	local name=$1 var=$2 script=$3 key=$4
	if [ -n "${!var:-}" ]; then
		setup_note "$name: $var=${!var}"
		return
	fi
	local dir=${BHLINT_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/bhlint}
	local bin="$dir/$name-$key"
	if [ ! -x "$bin" ]; then
		mkdir -p "$dir" && rm -f "$dir/$name"-* # older builds
		setup_note "building $name with $script (minutes the first time) into $dir"
		if ! "$script" "$bin.tmp" >&2 || ! mv "$bin.tmp" "$bin"; then
			setup_failed "$name" "$script failed"
			return
		fi
	fi
	export "$var=$bin"
}

# A real golangci-lint v2 with bhlint's module plugin compiled in, for the
# plugin's integration test. It compiles this checkout's analyzers, so it is
# rebuilt whenever the linter's source changes (in a minute or two: the go
# build cache keeps what did not change).
setup_golangci() {
	build_cached golangci-lint BHLINT_GOLANGCI_LINT scripts/golangci/build.sh \
		"$(cache_key "golangci-lint ${GOLANGCI_VERSION:-}" scripts/golangci)"
}

# ---- HOOK: gopls for the editor tests ---------------------------------------
# scripts/gopls/build.sh OUT builds a gopls with bhlint's analyzers compiled in,
# for the editor tests, which read its path from BHLINT_GOPLS. Without that
# script this step does nothing.
setup_gopls() {
	[ -n "${BHLINT_GOPLS:-}" ] || [ -x scripts/gopls/build.sh ] || return 0
	build_cached gopls BHLINT_GOPLS scripts/gopls/build.sh "$(cache_key "gopls ${GOPLS_VERSION:-}" scripts/gopls)"
}

# bhlint_setup runs every step from the repository's root. To add a step,
# write a setup_NAME function above and call it here.
bhlint_setup() {
	pushd "$(dirname "${BASH_SOURCE[0]}")/.." >/dev/null || return 1
	setup_services
	setup_apt_tools
	setup_sarif
	setup_golangci
	setup_gopls
	popd >/dev/null || return 1
}

# Run directly: do the setup, print the variables for eval, fail if a step
# failed.
if [ "${BASH_SOURCE[0]}" = "$0" ]; then
	set -uo pipefail
	bhlint_setup
	for var in BHLINT_GOLANGCI_LINT BHLINT_GOPLS; do
		[ -n "${!var:-}" ] && printf 'export %s=%q\n' "$var" "${!var}"
	done
	[ ${#BHLINT_SETUP_FAILURES[@]} -eq 0 ]
fi
