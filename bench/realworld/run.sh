#!/usr/bin/env bash
# bench/realworld/run.sh — bhlint on real open-source Go services, against triage and recall
# files, with go vet and staticcheck side by side.
#
#   ./bench/realworld/run.sh                # every service; writes bench/REALWORLD.md
#   ./bench/realworld/run.sh miniflux       # some services; the report goes to $REALWORLD_DIR
#   ./bench/realworld/run.sh --ci           # the services marked ci=1, bhlint only; no timing
#   ./bench/realworld/run.sh --report       # rewrite bench/REALWORLD.md from the last results of each
#   ./bench/realworld/run.sh --fetch        # only download the services and their dependencies (work copies)
#   ./bench/realworld/run.sh --first-contact NAME...   # a newly labelled service's first run, recorded for good
#   REALWORLD_DIR=/path ...                 # work copies and results (default ~/.cache/bhlint-realworld)
#   REALWORLD_ROUNDS=N ...                  # go vet and bhlint N times each, interleaved; best of N (default 2)
#
# Each service is bench/realworld/services/<name>/: service.txt (module=, version=, sum=,
# packages=, style=, optionally subdir= when go.mod is below the module root, touch= files to
# create before building, e.g. an embedded UI build the module zip leaves out, nested=DIR
# MODULE@VERSION SUM (one per line) for a module that a replace directive takes from DIR, which
# the module zip leaves out, replace=OLD NEW@VERSION SUM (one per line) for a dependency the proxy
# refuses whose code it serves under the path it moved to (go mod edit -replace OLD=NEW@VERSION in
# the work copy; NEW checked against SUM), patch=MODULE@VERSION SUM FILE (one per line) for a
# dependency that does not compile with this Go (a build constraint older than it): the module is
# copied to .realworld-patched/ in the work copy, services/NAME/FILE (a unified diff, patch -p1)
# applied to it, and the module replaced by that directory; service.txt says why, and ci=1),
# triage.tsv (every bhlint finding: file:line, code, true|false|debatable|fixed|moved, reason; fixed
# is a false positive that an analyzer change removed and that must not come back; moved is a
# true finding now reported at another line, kept for the first-contact record that holds it),
# recall.tsv (real instances found by reading the code: file:line, code, note) and
# lookalikes.tsv (code that resembles an instance and is fine: file:line, code, what bounds it).
# services/<name>/bhlint.yml, when present, is copied to the module root as its .bhlint.yml: the
# deployment (replicas) and database limits the service's own manifests document, which poolbudget
# needs and a module never ships.
# service.txt may also say selfpatch=FILE: a unified diff (patch -p1 in the module's root) that
# fixes a test file of the service that does not compile at its version (go vet includes test
# files, so the package would not load at all), or adds a Go file its release build generates and
# the module zip leaves out (perses' ui/embed.go); service.txt says why, and the diff touches only
# what does not compile.
# service.txt may also say apt=PACKAGES: Debian packages the build needs (cgo headers), installed
# when missing; and tags=TAG,TAG: the build tags its own build uses (test files behind a tag,
# database adapters behind one each), passed as -tags to go list, go vet, bhlint and staticcheck.
#
# First contact (docs/CONTRIBUTING.md, "Add a service to the corpus"): a new service is labelled
# by someone who has not seen bhlint's output, the labels are committed, and then
# --first-contact runs bhlint once (no timing) and writes services/NAME/first-contact.json, which
# no later run rewrites: the score a new user would have met. It refuses a service that has a
# record already, or whose labels are missing, uncommitted or changed since their commit.
#
# For each service: the module is fetched at its exact version (the module cache is read-only,
# so it is copied to a work copy), its dependencies downloaded, the build cache warmed; then go
# vet, bhlint and staticcheck each run once with a cold analysis cache (bench/lib.sh says how),
# timed. The report program compares bhlint's findings with the triage file, prints each finding
# the triage does not know as "untriaged", and fails (exit 1) when a triaged-true finding
# disappeared, a false positive triaged fixed came back, or a service did not load completely
# (a finding triaged false is a known false positive: when it goes, the report says to mark it
# fixed).
#
# The proxy serves these versions but its checksum database does not know most of them, so the
# modules are fetched with GOSUMDB=off and checked against the sum= in service.txt instead.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
# shellcheck source=bench/lib.sh
. "$root/bench/lib.sh"
die() { bench_die "realworld: $*"; }

ci=""
report_only=""
fetch_only=""
first_contact=""
built_at=unknown
rounds=${REALWORLD_ROUNDS:-2}
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "realworld: REALWORLD_ROUNDS must be a positive number, not '$rounds'" >&2; exit 2; }
only=()
for arg in "$@"; do
	case $arg in
	--ci) ci=1 ;;
	--report) report_only=1 ;;
	--fetch) fetch_only=1 ;;
	--first-contact) first_contact=1 ci=1 ;;
	-*) die "unknown flag $arg (usage: run.sh [--ci | --report | --fetch | --first-contact] [service...])" ;;
	*) [ -f "bench/realworld/services/$arg/service.txt" ] || die "no service $arg in bench/realworld/services"
		only+=("$arg") ;;
	esac
done
staticcheck_version=v0.8.2
export GOTOOLCHAIN=local GOFLAGS="-mod=readonly -buildvcs=false"
command -v go >/dev/null || die "the go command is not on PATH"
[ -n "$ci$fetch_only" ] || bench_need_gnu_time

# labels_commit SERVICE: the commit that last changed the service's labels; dies when they are
# missing, untracked or changed since (the first run must see only committed labels).
labels_commit() {
	local d="bench/realworld/services/$1" f c
	[ ! -e "$d/first-contact.json" ] || die "$1: its first contact is recorded already ($d/first-contact.json); it is not run again"
	for f in recall.tsv lookalikes.tsv; do
		[ -f "$d/$f" ] || die "$1: $d/$f is missing: label the service first (docs/CONTRIBUTING.md)"
		git ls-files --error-unmatch "$d/$f" >/dev/null 2>&1 || die "$1: $d/$f is not committed: commit the labels before the first run"
	done
	git diff --quiet HEAD -- "$d/recall.tsv" "$d/lookalikes.tsv" || die "$1: the labels changed since their commit: commit them before the first run"
	c=$(git log -1 --format=%H -- "$d/recall.tsv" "$d/lookalikes.tsv") && [ -n "$c" ] || die "$1: no commit holds its labels"
	echo "$c"
}

services=("${only[@]}")
if [ -n "$first_contact" ]; then
	[ ${#services[@]} -gt 0 ] || die "--first-contact needs the services to run, by name"
	declare -A labelled_at
	for name in "${services[@]}"; do labelled_at[$name]=$(labels_commit "$name") || exit 2; done
	# The record is kept for good: a build whose analyzers cannot run under go vet (a fact type
	# missing from FactTypes fails every package that exports it) must not make one.
	go test -count=1 -run 'TestFactTypesDeclared' ./suite/ >&2 ||
		die "the suite's own checks fail: fix them before a first contact is recorded"
fi
if [ ${#services[@]} -eq 0 ]; then
	for d in bench/realworld/services/*/; do
		name=$(basename "$d")
		[ -f "$d/service.txt" ] || continue
		if [ -z "$ci" ] || grep -qx 'ci=1' "$d/service.txt"; then services+=("$name"); fi
	done
fi

rwdir=${REALWORLD_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/bhlint-realworld}
# Each service's results live in results/<name> and only that directory is replaced, so a run of
# some services keeps the others' figures for the report (--report rewrites it from them).
results="$rwdir/results${ci:+-ci}"
[ -z "$first_contact" ] || results="$rwdir/results-first"
work=$(mktemp -d "${TMPDIR:-/tmp}/bhlint-realworld.XXXXXX")
sampler=""
trap '[ -z "$sampler" ] || kill "$sampler" 2>/dev/null; rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
mkdir -p "$rwdir/src" "$results"

if [ -z "$fetch_only" ]; then
	echo "realworld: building bhlint and the report${ci:+ (--ci)}" >&2
	# The commit the binary is built from, taken now: the tree may change while the services run.
	built_at="$(git rev-parse --short HEAD 2>/dev/null || echo unknown)$( [ -n "$(git status --porcelain -- analyzers internal cmd suite 2>/dev/null)" ] && echo ' (with uncommitted changes)' || true)"
	go build -o "$work/bhlint" ./cmd/bhlint || die "building bhlint failed"
	go build -o "$work/report" ./bench/realworld/report || die "building bench/realworld/report failed"
fi
if [ -z "$ci$report_only$fetch_only" ]; then
	GOBIN="$work/bin" GOFLAGS=-buildvcs=false go install "honnef.co/go/tools/cmd/staticcheck@$staticcheck_version" ||
		die "installing staticcheck $staticcheck_version failed"
	go build -o "$work/floor" ./bench/floor || die "building bench/floor failed"
fi

# meta SERVICE KEY: a value of the service's service.txt.
meta() { sed -n "s/^$2=//p" "bench/realworld/services/$1/service.txt" | head -1; }

# substitute SERVICE MODROOT: the service.txt's replace= and patch= lines, applied to the work copy's
# go.mod (and go.sum) in MODROOT before its dependencies are downloaded.
substitute() {
	local name=$1 modroot=$2 old new nsum mod file info got dir
	while read -r old new nsum; do
		[ -n "$old" ] || continue
		info=$(cd "$modroot" && GOSUMDB=off GOFLAGS=-mod=mod go mod edit -replace "$old=$new" &&
			GOSUMDB=off GOFLAGS=-mod=mod go mod download -json "$new") || die "$name: replace $old with $new failed: $info"
		got=$(sed -n 's/^\t"Sum": "\(.*\)",$/\1/p' <<<"$info")
		[ "$got" = "$nsum" ] || die "$name: replacement $new has sum $got, service.txt says $nsum"
	done < <(sed -n 's/^replace=//p' "bench/realworld/services/$name/service.txt")
	while read -r mod nsum file; do
		[ -n "$mod" ] || continue
		info=$(GOSUMDB=off GOFLAGS=-mod=mod go mod download -json "$mod") || die "$name: go mod download $mod (patch=) failed: $info"
		got=$(sed -n 's/^\t"Sum": "\(.*\)",$/\1/p' <<<"$info")
		[ "$got" = "$nsum" ] || die "$name: $mod (patch=) has sum $got, service.txt says $nsum"
		dir=".realworld-patched/${mod//\//+}"
		rm -rf "${modroot:?}/$dir"
		mkdir -p "$modroot/.realworld-patched"
		cp -r "$(sed -n 's/^\t"Dir": "\(.*\)",$/\1/p' <<<"$info")" "$modroot/$dir"
		chmod -R u+w "$modroot/$dir"
		patch -s -p1 -d "$modroot/$dir" <"bench/realworld/services/$name/$file" || die "$name: $file does not apply to $mod"
		(cd "$modroot" && go mod edit -replace "${mod%@*}=./$dir") || die "$name: replacing $mod by its patched copy failed"
	done < <(sed -n 's/^patch=//p' "bench/realworld/services/$name/service.txt")
}

# prepare SERVICE: a writable work copy of the module with its dependencies; prints its root.
prepare() {
	local name=$1 module version sum info dir got copy
	module=$(meta "$name" module) version=$(meta "$name" version) sum=$(meta "$name" sum)
	[ -n "$module" ] && [ -n "$version" ] && [ -n "$sum" ] || die "$name: service.txt needs module=, version= and sum="
	copy="$rwdir/src/$name@$version"
	if [ ! -f "$copy/.realworld-ready" ]; then
		info=$(GOSUMDB=off GOFLAGS=-mod=mod go mod download -json "$module@$version") ||
			die "$name: go mod download $module@$version failed: $info"
		dir=$(sed -n 's/^\t"Dir": "\(.*\)",$/\1/p' <<<"$info")
		got=$(sed -n 's/^\t"Sum": "\(.*\)",$/\1/p' <<<"$info")
		[ "$got" = "$sum" ] || die "$name: $module@$version has sum $got, service.txt says $sum"
		rm -rf "$copy"
		cp -r "$dir" "$copy"
		chmod -R u+w "$copy"
		local f pkg missing=()
		for pkg in $(meta "$name" apt); do dpkg -s "$pkg" >/dev/null 2>&1 || missing+=("$pkg"); done
		if [ ${#missing[@]} -gt 0 ]; then
			echo "realworld: $name: installing ${missing[*]} (apt= in service.txt)" >&2
			{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null; } ||
				die "$name: could not install ${missing[*]}; install them (apt-get install ${missing[*]}) and rerun"
		fi
		for f in $(meta "$name" touch); do mkdir -p "$copy/$(dirname "$f")" && touch "$copy/$f"; done
		for f in $(meta "$name" selfpatch); do
			patch -s -p1 -d "$copy" <"bench/realworld/services/$name/$f" || die "$name: $f does not apply to its work copy"
		done
		local ndir nmod nsum
		while read -r ndir nmod nsum; do
			[ -n "$ndir" ] || continue
			info=$(GOSUMDB=off GOFLAGS=-mod=mod go mod download -json "$nmod") || die "$name: go mod download $nmod (nested=) failed: $info"
			got=$(sed -n 's/^\t"Sum": "\(.*\)",$/\1/p' <<<"$info")
			[ "$got" = "$nsum" ] || die "$name: nested $nmod has sum $got, service.txt says $nsum"
			rm -rf "${copy:?}/$ndir"
			cp -r "$(sed -n 's/^\t"Dir": "\(.*\)",$/\1/p' <<<"$info")" "$copy/$ndir"
			chmod -R u+w "$copy/$ndir"
		done < <(sed -n 's/^nested=//p' "bench/realworld/services/$name/service.txt")
		substitute "$name" "$copy/$(meta "$name" subdir)"
		(cd "$copy/$(meta "$name" subdir)" && GOSUMDB=off go mod download) >&2 ||
			die "$name: downloading its dependencies failed"
		touch "$copy/.realworld-ready"
	fi
	# The deployment the service's own manifests document (replicas, the database's
	# max_connections), for poolbudget: services/NAME/bhlint.yml becomes the module's
	# .bhlint.yml on every run, so an edit takes effect and a removed file leaves none behind.
	local cfg="bench/realworld/services/$name/bhlint.yml" root="$copy/$(meta "$name" subdir)"
	if [ -f "$cfg" ]; then cp "$cfg" "$root/.bhlint.yml"; else rm -f "$root/.bhlint.yml"; fi
	echo "$copy"
}

if [ -n "$fetch_only" ]; then
	for name in "${services[@]}"; do
		echo "realworld: $name: fetching $(meta "$name" module)@$(meta "$name" version)" >&2
		# prepare's die ends only its command substitution: stop here too.
		copy=$(prepare "$name") || exit 1
		echo "realworld: $name: ready in $copy" >&2
	done
	exit 0
fi

# measure SERVICE MODROOT: run the tools in the module, leaving results in $results/SERVICE.
measure() {
	local name=$1 modroot=$2 out="$results/$1" pkgs s rc
	local dir
	dir="$modroot/$(meta "$name" subdir)"
	rm -rf "$out"
	mkdir -p "$out"
	echo "$modroot" >"$out/root.txt"
	echo "$dir" >"$out/cwd.txt"
	read -r -a pkgs <<<"$(meta "$name" packages)"
	# tags= goes to every tool as -tags, before the packages: the build the service's own
	# Makefile or docs use (test files behind a tag, database adapters behind one each).
	local tags
	tags=$(meta "$name" tags)
	[ -z "$tags" ] || pkgs=("-tags=$tags" "${pkgs[@]}")
	echo "realworld: $name: warming the build cache" >&2
	(cd "$dir" && go list -e -export -deps -test "${pkgs[@]}" >/dev/null 2>"$out/list.err") ||
		echo "realworld: $name: go list reported errors (see $out/list.err)" >&2
	s=$(bench_salt)
	bench_salted_copy "$work/bhlint" "$work/bhlint-$s"
	if [ -n "$ci" ]; then
		set +e
		(cd "$dir" && "$work/bhlint-$s" -format=json "${pkgs[@]}" >"$out/bhlint.json" 2>"$out/bhlint.err")
		echo $? >"$out/bhlint.rc"
		set -e
		return
	fi
	# vet and bhlint run ROUNDS times, interleaved, each round with a new salt (a cold analysis
	# cache); each figure is the best (lowest) of the rounds: what the other load on the machine
	# added is noise, and the lowest is the run it disturbed least. staticcheck runs once.
	# In each round, after them, the type-checking floor (bench/floor) and bhlint both run as go
	# vet's -vettool, the same driver, so their ratio is what bhlint's analysis adds to what no
	# vet tool can avoid: first as the user runs them, then with GODEBUG=disablethp=1, which
	# switches off bhlint's huge-page advice (the speed target is the CPU ratio under it).
	local r
	set +e
	: >"$out/load.txt"
	for ((r = 1; r <= rounds; r++)); do
		if [ "$r" -gt 1 ]; then
			s=$(bench_salt)
			bench_salted_copy "$work/bhlint" "$work/bhlint-$s"
		fi
		echo "vet $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/load.txt"
		(cd "$dir" && bench_timed "$out/vet.time.raw.$r" go vet -printf.funcs=benchsalt"$s" "${pkgs[@]}" >"$out/vet.out" 2>&1)
		echo $? >"$out/vet.rc"
		echo "bhlint $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/load.txt"
		(cd "$dir" && bench_timed "$out/bhlint.time.raw.$r" "$work/bhlint-$s" -format=json "${pkgs[@]}" >"$out/bhlint.json" 2>"$out/bhlint.err")
		echo $? >"$out/bhlint.rc"
		vettool_round floor "$work/floor" "$r" ""
		vettool_round bhlint-vettool "$work/bhlint" "$r" ""
		vettool_round floor-disablethp "$work/floor" "$r" disablethp=1
		vettool_round bhlint-vettool-disablethp "$work/bhlint" "$r" disablethp=1
	done
	mkdir -p "$work/sc-$s"
	echo "staticcheck $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/load.txt"
	(cd "$dir" && STATICCHECK_CACHE="$work/sc-$s" bench_timed "$out/staticcheck.time.raw.1" "$work/bin/staticcheck" "${pkgs[@]}" >"$out/staticcheck.out" 2>&1)
	echo $? >"$out/staticcheck.rc"
	set -e
	for t in vet bhlint staticcheck "${vettool_runs[@]}"; do
		: >"$out/$t.rounds"
		for raw in "$out/$t".time.raw.*; do
			[ -f "$raw" ] || continue
			bench_figures "$raw" >>"$out/$t.rounds" || echo "realworld: $name: $t has no timing in ${raw##*.raw.} (exit $(cat "$out/$t.rc"))" >&2
		done
		[ -s "$out/$t.rounds" ] && best_figures <"$out/$t.rounds" >"$out/$t.time"
		echo "realworld: $name: $t (exit $(cat "$out/$t.rc")): wall cpu rssMB per round: $(paste -sd';' "$out/$t.rounds"); best: $(cat "$out/$t.time" 2>/dev/null)" >&2
	done
}

# The go vet -vettool runs of each round, in their order (results/NAME/RUN.time and so on).
vettool_runs=(floor bhlint-vettool floor-disablethp bhlint-vettool-disablethp)

# vettool_round RUN BIN ROUND GODEBUG: go vet -vettool with a new salted copy of BIN (a cold
# analysis cache) in measure's $dir on its packages, timed as RUN's round ROUND; GODEBUG, when
# not empty, is added to the environment's. Its output and exit status go to $out/RUN.out, .rc.
vettool_round() {
	local run=$1 bin=$2 r=$3 debug=$4 tool
	tool="$work/$run-$(bench_salt)"
	bench_salted_copy "$bin" "$tool"
	echo "$run $(cut -d' ' -f1-3 /proc/loadavg)" >>"$out/load.txt"
	(
		cd "$dir" || exit 2
		[ -z "$debug" ] || export GODEBUG="${GODEBUG:+$GODEBUG,}$debug"
		bench_timed "$out/$run.time.raw.$r" go vet -vettool="$tool" "${pkgs[@]}" >"$out/$run.out" 2>&1
	)
	echo $? >"$out/$run.rc"
	rm -f "$tool"
}

# best_figures: the lowest wall, CPU and RSS of "wall cpu rssMB" lines.
best_figures() {
	awk 'NR == 1 || $1 < w { w = $1 } NR == 1 || $2 < c { c = $2 } NR == 1 || $3 < m { m = $3 } END { printf "%.2f %.2f %.0f\n", w, c, m }'
}

start=$(date +%s)
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
# The load during the timed runs, for the report's header: on a shared machine the wall ratios mean
# little without it.
[ -n "$ci$report_only" ] || sampler=$(bench_load_sampler "$work/load.samples")
for name in "${services[@]}"; do
	[ -z "$report_only" ] || break
	echo "realworld: $name: $(meta "$name" module)@$(meta "$name" version)" >&2
	modroot=$(prepare "$name") || exit 1
	measure "$name" "$modroot"
	date -u '+%Y-%m-%d %H:%M UTC' >"$results/$name/when.txt"
	echo "$built_at" >"$results/$name/built.txt"
	if [ -n "$first_contact" ]; then
		"$work/report" -services bench/realworld/services -results "$results" -record-first-contact "$name" \
			-labels-commit "${labelled_at[$name]}" -built "$built_at" || die "$name: recording the first contact failed"
		echo "realworld: $name: first contact recorded in bench/realworld/services/$name/first-contact.json: commit it" >&2
	fi
done

header="Run $(date -u '+%Y-%m-%d %H:%M UTC') on $(nproc) cores, $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo), $(go version | cut -d' ' -f3), staticcheck $staticcheck_version; bhlint built at $built_at, HEAD at the end $(git rev-parse --short HEAD 2>/dev/null || echo unknown); load average before: $load_start, after: $(cut -d' ' -f1-3 /proc/loadavg), during (1 min, every 15 s): $(bench_load_summary "$work/load.samples"); the whole run took $(($(date +%s) - start)) s; go vet and bhlint ran $rounds times each, interleaved, and each figure is the best of those rounds (staticcheck once); the by-round column pairs each bhlint run with the go vet run just before it; in each round the type-checking floor and bhlint then ran as go vet -vettool, as the user runs them and with GODEBUG=disablethp=1 (transparent huge pages here: $(cat /sys/kernel/mm/transparent_hugepage/enabled 2>/dev/null || echo unknown)${GODEBUG:+; GODEBUG=$GODEBUG in the environment})."
if [ -n "$report_only" ]; then
	have=()
	for n in "${services[@]}"; do
		if [ -s "$results/$n/bhlint.json" ]; then have+=("$n"); else echo "realworld: no results for $n in $results; left out of the report" >&2; fi
	done
	[ ${#have[@]} -gt 0 ] || die "no results in $results: run the services first"
	services=("${have[@]}")
	header="Rewritten $(date -u '+%Y-%m-%d %H:%M UTC') (run.sh --report) from each service's last run on this machine ($(nproc) cores, $(go version | cut -d' ' -f3), staticcheck $staticcheck_version; HEAD $(git rev-parse --short HEAD 2>/dev/null || echo unknown)); runs (with the commit bhlint was built at and the 1-minute load average as bhlint started): $(for n in "${services[@]}"; do printf '%s %s at %s, load %s; ' "$n" "$(cat "$results/$n/when.txt" 2>/dev/null || echo '?')" "$(cat "$results/$n/built.txt" 2>/dev/null || echo '?')" "$(sed -n 's/^bhlint \([^ ]*\).*/\1/p' "$results/$n/load.txt" 2>/dev/null || echo '?')"; done)"
fi
report_out=""
if [ -z "$ci" ]; then
	report_out="$rwdir/REALWORLD.md"
	[ ${#only[@]} -eq 0 ] && report_out="$root/bench/REALWORLD.md"
fi
set +e
"$work/report" -services bench/realworld/services -results "$results" ${report_out:+-out "$report_out"} -header "$header" -notes bench/realworld/NOTES.md "${services[@]}"
rc=$?
set -e
if [ -n "$report_out" ] && [ $rc -lt 2 ]; then echo "realworld: wrote $report_out" >&2; fi
echo "realworld: $(($(date +%s) - start)) s; results in $results" >&2
exit $rc
