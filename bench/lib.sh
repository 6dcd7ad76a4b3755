# bench/lib.sh — measuring code shared by bench/run.sh and bench/realworld/run.sh.
# Source it from bash; it defines functions and changes nothing else.
#
# The figures are those of GNU time: wall and CPU (user+sys of the whole process tree) seconds, and
# the peak RSS of the largest single process of the tree (%M). "Cold" for each tool is made
# without rebuilding anything (cmd/go keys a vet result on the tool's identity, the vet flags and
# the package's build action ID; see cmd/go/internal/work/exec.go, vet):
#   bhlint       a copy of the binary with random bytes appended (bench_salted_copy): its -V=full
#                identity is the sha256 of the executable, so every cached result misses;
#   go vet       the real default vet with a no-op salt flag, -printf.funcs=benchsalt<random> (a
#                printf-like function name that names no function), which changes the vet-flags
#                part of the key (go vet's -c is handled by cmd/go and not passed, so it cannot
#                salt); an explicit tool flag switches off cmd/go's std default -unsafeptr=false;
#   staticcheck  a fresh STATICCHECK_CACHE directory.

# bench_die MESSAGE: print and exit 2 (the callers' "not a real run" status).
bench_die() {
	echo "bench: $*" >&2
	exit 2
}

# bench_need_gnu_time: make sure /usr/bin/time is GNU time, installing it with apt as root.
bench_need_gnu_time() {
	if [ ! -x /usr/bin/time ]; then
		if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
			echo "bench: installing GNU time (apt-get install time)" >&2
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null ||
				bench_die "could not install GNU time; install it (apt-get install time) and rerun"
		else
			bench_die "GNU time (/usr/bin/time) is missing; install it (apt-get install time) and rerun"
		fi
	fi
	/usr/bin/time -f %M true >/dev/null 2>&1 || bench_die "/usr/bin/time is not GNU time (need -f %M)"
}

# bench_salt: a random decimal number, for cache-busting identities.
bench_salt() { od -An -N6 -tu8 /dev/urandom | tr -d ' \n'; }

# bench_salted_copy BIN DEST: DEST is BIN with random bytes appended, so its vet identity is new.
bench_salted_copy() {
	cp "$1" "$2"
	printf 'bench-salt-%s' "$(bench_salt)" >>"$2"
}

# bench_timed TIMEFILE CMD...: run CMD under GNU time, writing the figures to TIMEFILE; returns
# CMD's exit status. CMD's own output is left to the caller's redirections.
bench_timed() {
	local out=$1
	shift
	/usr/bin/time -f '%e %U %S %M' -o "$out" "$@"
}

# bench_figures TIMEFILE: "wall cpu rssMB" from a bench_timed file, or nothing (status 1) when the
# file has no figures (the command could not be started or was killed).
bench_figures() {
	grep -qE '^[0-9.]+ [0-9.]+ [0-9.]+ [0-9]+$' <(tail -1 "$1") || return 1
	tail -1 "$1" | awk '{ printf "%.2f %.2f %.0f\n", $1, $2 + $3, $4 / 1024 }'
}

# bench_load_sampler FILE: append the 1-minute load average to FILE every 15 s, in the background,
# until killed; prints the sampler's process id (kill it by that id).
bench_load_sampler() {
	(
		while :; do
			cut -d' ' -f1 /proc/loadavg >>"$1"
			sleep 15
		done
	) >/dev/null 2>&1 &
	echo $!
}

# bench_load_summary FILE: "min M, median D, max X (N samples)" of a bench_load_sampler file, or
# nothing when it has no samples.
bench_load_summary() {
	[ -s "$1" ] || return 0
	sort -g "$1" | awk '{ v[NR] = $1 } END { printf "min %s, median %s, max %s (%d samples)", v[1], v[int((NR + 1) / 2)], v[NR], NR }'
}
