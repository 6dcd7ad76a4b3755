# Sourced by the drill scripts: checks PostgreSQL, builds the service, the
# fake dependencies and the drill into a temporary directory, and runs the
# drill with the scenario given and the script's arguments. Sets the exit
# status: 0 the targets were met, 1 not, 2 the drill could not run.
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
example="$root/examples/payment-core"

# run_drill OUT_DEFAULT SCENARIO [drill args...]
run_drill() {
	local out="${DRILL_OUT:-$1}" scenario=$2
	shift 2
	if ! pg_isready -h 127.0.0.1 -p 5432 -q 2>/dev/null; then
		echo "drill: ERROR PostgreSQL is not answering on 127.0.0.1:5432" >&2
		echo "drill: ERROR no PostgreSQL"
		return 2
	fi
	bin=$(mktemp -d)
	trap 'rm -rf "$bin"' EXIT
	echo "building payment-core, fakedeps and the drill..." >&2
	(
		cd "$example"
		go build -o "$bin/payment-core" .
		go build -o "$bin/fakedeps" ./cmd/fakedeps
		go build -o "$bin/drill" ./cmd/drill
	)
	echo "machine load before the drill: $(uptime)" >&2
	local rc=0
	"$bin/drill" -scenario "$scenario" -bin "$bin" -out "$out" "$@" || rc=$?
	return "$rc"
}

# need CMD...: the commands a scenario runs the service under (util-linux).
need() {
	local c
	for c in "$@"; do
		if ! command -v "$c" >/dev/null; then
			echo "drill: ERROR $c not found (util-linux); install it (apt-get install util-linux)"
			exit 2
		fi
	done
}
