#!/usr/bin/env bash
# bench/run.sh — bhlint against go vet and staticcheck, side by side.
#
#   ./bench/run.sh                  # std and this repository, every state, every tool
#   BENCH_SETS=repo ./bench/run.sh  # only this repository (sets: std repo)
#   BENCH_REPS=3 ./bench/run.sh     # best of 3 for the warm and incremental states (default 3)
#   BENCH_COLD_REPS=2 ...           # best of 2 for the cold state (default 1)
#   BENCH_NO_APPEND=1 ...           # print the table, do not append it to bench/RESULTS.md
#
# Each package set is measured in three states, for each tool:
#   cold         analysis caches empty, go build cache warm (export data of every package compiled);
#   warm         nothing changed since the previous run;
#   incremental  one file of a leaf package changed (a fresh comment line appended, reverted after).
#
# How "cold" is made without rebuilding anything (cmd/go keys a vet result on the tool's
# identity, the vet flags and the package's build action ID; see cmd/go/internal/work/exec.go, vet):
#   bhlint       a copy of the binary with random bytes appended: its -V=full identity is the
#                sha256 of the executable, so every cached result misses;
#   go vet       the real default vet, with a no-op salt flag -printf.funcs=benchsalt<random> (an
#                extra printf-like function name that names no function), which changes the
#                vet-flags part of the key (go vet's -c is handled by cmd/go and not passed, so it
#                cannot salt); since an explicit tool flag switches off cmd/go's std default
#                (-unsafeptr=false), the script passes that explicitly for std;
#   staticcheck  a fresh STATICCHECK_CACHE directory.
#
# Figures: wall and CPU (user+sys, the process tree) seconds, and peak RSS of the largest single
# process of the tree (GNU time's %M), with the 1-minute load average before each run. The machine
# is shared: compare CPU seconds when the load is high, and rerun when the load is not ~nproc or less.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
export GOFLAGS="${GOFLAGS:-} -buildvcs=false"

sets=${BENCH_SETS:-std repo}
reps=${BENCH_REPS:-3}
cold_reps=${BENCH_COLD_REPS:-1}
staticcheck_version=v0.8.2

# shellcheck source=bench/lib.sh
. "$root/bench/lib.sh"
die() { bench_die "$@"; }

command -v go >/dev/null || die "the go command is not on PATH"
bench_need_gnu_time

work=$(mktemp -d "${TMPDIR:-/tmp}/bhlint-bench.XXXXXX")
touched=""   # file currently modified for the incremental state, restored on exit
touched_orig=""
cleanup() {
	if [ -n "$touched" ]; then restore_touch; fi
	rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

echo "bench: building bhlint and installing staticcheck $staticcheck_version into $work" >&2
go build -o "$work/bhlint" ./cmd/bhlint || die "building bhlint failed"
GOBIN="$work/bin" GOFLAGS=-buildvcs=false go install "honnef.co/go/tools/cmd/staticcheck@$staticcheck_version" ||
	die "installing staticcheck $staticcheck_version from the module proxy failed"

salt() { bench_salt; }

# Per-tool identity for the current cold/warm/incremental sequence.
new_identity() {
	local s
	s=$(salt)
	vet_salt=$s
	bhlint_bin="$work/bhlint-$s"
	bench_salted_copy "$work/bhlint" "$bhlint_bin" # changes the sha256 that -V=full reports
	sc_cache="$work/staticcheck-cache-$s"
	mkdir -p "$sc_cache"
}

# Package set: patterns, the leaf file the incremental state changes, and extra vet flags.
set_patterns() { case $1 in std) echo std ;; repo) echo ./... ;; esac; }
set_leaf() {
	case $1 in
	# No package of std imports net/http/fcgi, and it imports net/http, so bhlint's passes
	# do their real work on it rather than bailing out.
	std) echo "$(go env GOROOT)/src/net/http/fcgi/fcgi.go" ;;
	# No package of this module imports the golangci-lint plugin.
	repo) echo "$root/plugin/golangci/plugin.go" ;;
	esac
}
set_vetflags() { case $1 in std) echo -unsafeptr=false ;; repo) echo "" ;; esac; }

touch_leaf() {
	touched=$1
	touched_orig="$work/touched.orig"
	cp -p "$touched" "$touched_orig"
	printf '\n// bench %s\n' "$(salt)" >>"$touched"
}
restore_touch() {
	# Restore only if nobody else changed the file meanwhile (this tree is shared).
	local expect_len
	expect_len=$(stat -c %s "$touched_orig")
	if head -c "$expect_len" "$touched" | cmp -s - "$touched_orig"; then
		truncate -s "$expect_len" "$touched"
		touch -r "$touched_orig" "$touched"
	else
		echo "bench: WARNING: $touched changed during the run; remove the trailing '// bench' line by hand" >&2
	fi
	touched=""
}

# run_tool TOOL SET: run one tool on one set, once, timed; prints "wall cpu rssMB load exit".
run_tool() {
	local tool=$1 set=$2 pats out rc load
	pats=$(set_patterns "$set")
	out="$work/time.out"
	load=$(cut -d' ' -f1 /proc/loadavg)
	set +e
	case $tool in
	vet)
		# shellcheck disable=SC2046
		bench_timed "$out" go vet -printf.funcs=benchsalt"$vet_salt" $(set_vetflags "$set") $pats >"$work/$tool.log" 2>&1
		;;
	bhlint)
		bench_timed "$out" "$bhlint_bin" $pats >"$work/$tool.log" 2>&1
		;;
	staticcheck)
		STATICCHECK_CACHE=$sc_cache bench_timed "$out" "$work/bin/staticcheck" $pats >"$work/$tool.log" 2>&1
		;;
	esac
	rc=$?
	set -e
	# go vet exits 1 on findings, bhlint 1 on findings, staticcheck 1 on findings; 2+ or a
	# crash means the figure is not a real run.
	if [ $rc -ge 2 ] || ! bench_figures "$out" >/dev/null; then
		echo "bench: $tool on $set failed (exit $rc); its output:" >&2
		tail -20 "$work/$tool.log" >&2
		tail -3 "$out" >&2
		exit 2
	fi
	echo "$(bench_figures "$out") $load $rc"
}

# best RESULTS...: the run with the least wall time.
best() { printf '%s\n' "$@" | sort -n -k1,1 | head -1; }

declare -A result
prime() {
	local set=$1 pats
	pats=$(set_patterns "$set")
	echo "bench: warming the go build cache for $set (export data of every package and test variant)" >&2
	# shellcheck disable=SC2086
	go list -e -export -deps -test $pats >/dev/null
}

measure_set() {
	local set=$1 tool leaf r runs i
	prime "$set"
	leaf=$(set_leaf "$set")
	for tool in vet bhlint staticcheck; do
		# cold: a fresh identity per repetition; warm and incremental reuse the last one.
		runs=()
		for ((i = 0; i < cold_reps; i++)); do
			new_identity
			runs+=("$(run_tool $tool "$set")")
		done
		result[$set,$tool,cold]=$(best "${runs[@]}")
		echo "bench: $set $tool cold: ${result[$set,$tool,cold]}" >&2
		runs=()
		for ((i = 0; i < reps; i++)); do runs+=("$(run_tool $tool "$set")"); done
		result[$set,$tool,warm]=$(best "${runs[@]}")
		echo "bench: $set $tool warm: ${result[$set,$tool,warm]}" >&2
		runs=()
		for ((i = 0; i < reps; i++)); do
			touch_leaf "$leaf"
			r=$(run_tool $tool "$set")
			restore_touch
			runs+=("$r")
		done
		result[$set,$tool,incremental]=$(best "${runs[@]}")
		echo "bench: $set $tool incremental: ${result[$set,$tool,incremental]}" >&2
		# Bring the cache back to the unmodified file for the next tool's warm state.
		run_tool $tool "$set" >/dev/null
	done
}

field() { echo "${result[$1]}" | cut -d' ' -f"$2"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "n/a"; else printf "%.2f", a / b }'; }
# verdict VALUE LIMIT: "met" or "missed by X%" (VALUE ≤ LIMIT is met).
verdict() {
	awk -v v="$1" -v l="$2" 'BEGIN { if (v <= l) print "met"; else printf "missed by %.0f%%", (v / l - 1) * 100 }'
}

report() {
	local set state tool w c m l
	echo "### $(date -u '+%Y-%m-%d %H:%M UTC') — $(nproc) cores, $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo), $(go version | cut -d' ' -f3-), staticcheck $staticcheck_version"
	echo
	echo "bhlint at $(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)$( [ -n "$(git -C "$root" status --porcelain -- . ':!bench' 2>/dev/null)" ] && echo ' (with uncommitted changes)'), load average before the run: $load_start; after: $(cut -d' ' -f1-3 /proc/loadavg)."
	echo "Warm/incremental: best of $reps; cold: best of $cold_reps. CPU = user+sys of the whole process tree; RSS = largest single process."
	echo
	echo "| set | state | tool | wall s | CPU s | peak RSS MB | load (1 min) |"
	echo "|---|---|---|---:|---:|---:|---:|"
	for set in $sets; do
		for state in cold warm incremental; do
			for tool in vet bhlint staticcheck; do
				echo "| $set | $state | $tool | $(field "$set,$tool,$state" 1) | $(field "$set,$tool,$state" 2) | $(field "$set,$tool,$state" 3) | $(field "$set,$tool,$state" 4) |"
			done
		done
	done
	echo
	echo "| set | state | bhlint/vet wall | bhlint/vet CPU | bhlint/vet RSS | bhlint/staticcheck wall | bhlint/staticcheck CPU | bhlint/staticcheck RSS |"
	echo "|---|---|---:|---:|---:|---:|---:|---:|"
	for set in $sets; do
		for state in cold warm incremental; do
			echo -n "| $set | $state "
			for tool in vet staticcheck; do
				for f in 1 2 3; do
					echo -n "| $(ratio "$(field "$set,bhlint,$state" $f)" "$(field "$set,$tool,$state" $f)") "
				done
			done
			echo "|"
		done
	done
	echo
	echo "Targets:"
	echo
	for set in $sets; do
		w=$(ratio "$(field "$set,bhlint,cold" 1)" "$(field "$set,vet,cold" 1)")
		echo "- $set: cold wall ≤ 1.0× go vet: ${w}× — $(verdict "$w" 1.0)"
		w=$(ratio "$(field "$set,bhlint,cold" 1)" "$(field "$set,staticcheck,cold" 1)")
		echo "- $set: cold wall ≤ 0.6× staticcheck: ${w}× — $(verdict "$w" 0.6)"
		m=$(ratio "$(field "$set,bhlint,cold" 3)" "$(field "$set,vet,cold" 3)")
		echo "- $set: peak RSS ≤ 1.5× go vet (cold): ${m}× — $(verdict "$m" 1.5)"
		w=$(field "$set,bhlint,warm" 1)
		echo "- $set: warm ≤ 0.5 s: ${w} s — $(verdict "$w" 0.5)"
		w=$(field "$set,bhlint,incremental" 1)
		echo "- $set: incremental (one leaf file) ≤ 2 s: ${w} s — $(verdict "$w" 2)"
	done
	echo
}

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
for set in $sets; do
	case $set in std | repo) ;; *) die "unknown set $set (want std or repo)" ;; esac
	measure_set "$set"
done
report >"$work/report.md"
cat "$work/report.md"
if [ -z "${BENCH_NO_APPEND:-}" ]; then
	cat "$work/report.md" >>"$root/bench/RESULTS.md"
	echo "bench: appended to bench/RESULTS.md" >&2
fi
