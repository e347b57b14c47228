#!/bin/bash
# The load curve of issue 14: for each table count, the old code (OLDDIR, one
# process on SQLite) beside the new (NEWDIR): one process on SQLite, and one
# and two processes on Redis + PostgreSQL, alternating in one run.
#
# usage: benchmarks/server_curve.sh NEWDIR OLDDIR [SECONDS] ["20 50 100 200 500 1000"]
# needs: PG (a PostgreSQL URL whose role may CREATE DATABASE, default below),
#        REDIS (default redis://127.0.0.1:6379/0); JSON lines go to OUT.
NEW=$1; OLD=$2; SECS=${3:-10}; COUNTS=${4:-"20 50 100 200 500 1000"}
PG=${PG:-postgresql://rebelote_ci:rebelote_ci@127.0.0.1:5432}
REDIS=${REDIS:-redis://127.0.0.1:6379/0}
OUT=${OUT:-server_curve.jsonl}
run() { # label dir args...
  local label=$1 dir=$2; shift 2
  local line
  line=$(cd "$dir" && timeout 900 uv run rebelote bench server --seconds "$SECS" --json "$@" | tail -1)
  echo "{\"label\":\"$label\",\"load\":\"$(cut -d' ' -f1-3 /proc/loadavg)\",\"result\":${line:-null}}" >> "$OUT"
  echo "$label $*: $line"
}
for n in $COUNTS; do
  run old-1p-sqlite "$OLD" --tables "$n"
  run new-1p-sqlite "$NEW" --tables "$n"
  for p in 1 2; do
    db="curve_${n}_${p}_$$"
    psql "$PG/postgres" -qc "CREATE DATABASE $db"
    run "new-${p}p-redis-pg" "$NEW" --tables "$n" --processes "$p" --redis "$REDIS" \
      --db "${PG/postgresql:/postgresql+psycopg:}/$db"
    psql "$PG/postgres" -qc "DROP DATABASE $db"
  done
done
