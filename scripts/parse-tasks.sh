#!/bin/sh
# Runs `yogar parse --32` over every task of an sv-benchmarks checkout's tasks.csv and counts
# how many lower to the IR. Usage: scripts/parse-tasks.sh [SVB] (default ../shared/sv-benchmarks).
# Prints one line per failure (task, exit code, first error line) and the total.
SVB=${1:-../shared/sv-benchmarks}
YOGAR=${YOGAR:-target/release/yogar}
[ -f "$SVB/tasks.csv" ] || { echo "no $SVB/tasks.csv" >&2; exit 2; }
# Each run is limited to 4 GB of memory and 60 s.
ulimit -v 4000000
ok=0; total=0
for f in $(tail -n +2 "$SVB/tasks.csv" | cut -d, -f2); do
  total=$((total+1))
  out=$(timeout 60 "$YOGAR" parse --32 "$SVB/c/$f" 2>&1 >/dev/null; echo "exit=$?")
  code=$(echo "$out" | tail -1 | sed 's/exit=//')
  err=$(echo "$out" | grep -v 'warning' | head -1)
  if [ "$code" = 0 ]; then ok=$((ok+1)); else echo "FAIL $f (exit $code): $err"; fi
done
echo "lowered $ok of $total tasks"
