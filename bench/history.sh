#!/usr/bin/env bash
# bench/history.sh: the history queries of issue 34 on a real SQLite file,
# run by the real binary. bench/historygen fills bench/out/history-N.db
# once (N snapshots, ten sessions in each of N/10 workflows, copies of the
# snapshot of one shared Claude Code session); then `list -n 0` and
# `decisions --grep WORD` (WORD: a word of its first decision) run $RUNS
# times each, output to /dev/null, and the table gives the minimum of
# user+sys CPU and of wall time (GNU time). The issue's bar: < 100 ms at
# 10,000 snapshots.
#
# Usage: bench/history.sh   (N=10000 RUNS=5 SHARED=../shared/transcripts)
set -euo pipefail

root=$(git rev-parse --show-toplevel)
n=${N:-10000}
runs=${RUNS:-5}
shared=${SHARED:-$(cd "$(git rev-parse --path-format=absolute --git-common-dir)/../.." && pwd)/shared/transcripts}
out=$root/bench/out
[[ -x /usr/bin/time ]] || { echo "bench: needs GNU time at /usr/bin/time" >&2; exit 1; }
mkdir -p "$out"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

(cd "$root" && go build -o "$tmp/built" ./cmd/handoff && go build -o "$tmp/historygen" ./bench/historygen)
cp "$tmp/built" "$tmp/handoff" # see bench/scale.sh: run a copy
db=$out/history-$n.db
if [[ ! -s $db || ! -s $db.word ]]; then
	rm -f "$db" "$db.word"
	"$tmp/historygen" -n "$n" -transcript "$shared/claude-code/vsla-d7d349f9-241lines.jsonl" "$db" >"$db.word"
fi
word=$(cat "$db.word")
# One untimed run first: it applies any migration the file lacks (0007
# rebuilds the records table: seconds at 10,000 snapshots), so the timed
# runs see the schema this build reads.
"$tmp/handoff" --db "$db" list -n 1 >/dev/null

echo "history queries on $db ($n snapshots, $(du -m "$db" | cut -f1) MB), minimum of $runs runs;" \
	"$(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-32s %10s %10s\n' query cpu-ms wall-ms
for q in "list -n 0" "decisions --grep $word"; do
	: >"$tmp/cpu" >"$tmp/wall"
	for ((i = 0; i < runs; i++)); do
		# shellcheck disable=SC2086 # q is the query's words
		/usr/bin/time -o "$tmp/time" -f '%U %S %e' "$tmp/handoff" --db "$db" $q >/dev/null
		tail -n 1 "$tmp/time" | awk '{printf "%.0f\n", 1000 * ($1 + $2)}' >>"$tmp/cpu"
		tail -n 1 "$tmp/time" | awk '{printf "%.0f\n", 1000 * $3}' >>"$tmp/wall"
	done
	printf '%-32s %10s %10s\n' "$q" "$(sort -g "$tmp/cpu" | head -n 1)" "$(sort -g "$tmp/wall" | head -n 1)"
done
