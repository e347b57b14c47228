#!/usr/bin/env bash
# Profile one `rebelote serve` process under `rebelote bench server` with
# py-spy (run through `uv run --with`: never a project dependency), then
# summarise it with benchmarks/pyspy_summary.py.
#
#   bash benchmarks/profile_server.sh [TABLES] [SECONDS] [OUT] [py-spy record flags...]
#   bash benchmarks/profile_server.sh 50 20 /tmp/profile --gil   # time holding the GIL
#
# The bench starts the server; py-spy attaches to it when the bench starts
# measuring (the server idle after its warm-up, every table set up, started
# and played for a second) and records SECONDS of the measured time.
# Linux only (/proc); py-spy needs ptrace (root, or CAP_SYS_PTRACE).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
TABLES=${1:-50}
SECONDS_=${2:-20}
OUT=${3:-/tmp/rebelote-profile}
shift $(( $# < 3 ? $# : 3 ))
PYSPY=${PYSPY:-"uv run --with py-spy==0.4.3 py-spy"}
mkdir -p "${OUT}"
uv sync --frozen -q
$PYSPY --version
.venv/bin/python -m rebelote bench server --tables "${TABLES}" --seconds $(( SECONDS_ + 5 )) \
    --json > "${OUT}/bench.json" 2> "${OUT}/bench.err" &
BENCH=$!
SERVE=""
for _ in $(seq 1 600); do
    SERVE=$(pgrep -P "${BENCH}" || true)
    [ -n "${SERVE}" ] && break
    sleep 0.1
done
[ -n "${SERVE}" ] || { echo "no server process" >&2; exit 1; }
# the bench says "measuring" once the tables are set up, started and warm
for _ in $(seq 1 3000); do
    grep -q "bench: measuring" "${OUT}/bench.err" && break
    kill -0 "${BENCH}" 2>/dev/null || { cat "${OUT}/bench.err" >&2; exit 1; }
    sleep 0.1
done
uptime | tee "${OUT}/uptime"
$PYSPY record --pid "${SERVE}" --duration "${SECONDS_}" --rate 100 --format raw \
    -o "${OUT}/profile.txt" "$@"
uptime | tee -a "${OUT}/uptime"
wait "${BENCH}"
cat "${OUT}/bench.json"
uv run python benchmarks/pyspy_summary.py "${OUT}/profile.txt"
