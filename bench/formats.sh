#!/usr/bin/env bash
# bench/formats.sh: the 100 MB table of issue 29. Runs
# BenchmarkAgentFormats100MB (transcript/agents_bench_test.go: a 100 MB
# synthetic session of each agent format, parsed from a file) in a test
# binary built from $BASE and in one built from this tree, alternately,
# $RUNS rounds, and prints per format the CPU time and the sampled peak
# heap as ratios to the Claude Code decoder's, measured in the same
# process (each the minimum over the rounds), before and after.
# Both binaries run this tree's benchmark file, so the shapes and the
# measurement are the same and only the readers differ.
#
# Usage: bench/formats.sh   (BASE=0f08bc4 RUNS=3 FILTER=regexp of formats)
# Takes about 4 minutes a round on 2 idle cores. The raw benchmark output
# is kept in $OUT (default a temp dir), the 100 MB files (2.2 GB) in
# $HANDOFF_BENCH_DIR (default $OUT/files), written in the first run.
set -euo pipefail

root=$(git rev-parse --show-toplevel)
base=${BASE:-0f08bc4}
runs=${RUNS:-3}
filter=${FILTER:-.*}
out=${OUT:-$(mktemp -d)}
export HANDOFF_BENCH_DIR=${HANDOFF_BENCH_DIR:-$out/files}
mkdir -p "$HANDOFF_BENCH_DIR"
old=$(mktemp -d)
trap 'git -C "$root" worktree remove --force "$old" >/dev/null 2>&1 || true' EXIT

git -C "$root" worktree add --detach "$old" "$base" >/dev/null 2>&1
cp "$root/transcript/agents_bench_test.go" "$old/transcript/agents_bench_test.go"
(cd "$old" && go test -c -o "$out/old.test" ./transcript/)
(cd "$root" && go test -c -o "$out/new.test" ./transcript/)

bench="BenchmarkAgentFormats100MB/^(claude-code|$filter)\$"
for r in $(seq "$runs"); do
	for v in old new; do
		echo "round $r: $v" >&2
		(cd "$root/transcript" && "$out/$v.test" -test.run XXX -test.bench "$bench" -test.benchtime 1x) >"$out/$v.$r.txt"
	done
done

# One line per format: name, then the metrics by unit (the minimum over
# the rounds).
summarise() {
	cat "$out/$1".*.txt | awk '/^BenchmarkAgentFormats100MB\// {
		name = $1; sub(/^BenchmarkAgentFormats100MB\//, "", name); sub(/-[0-9]+$/, "", name)
		if (!(name in seen)) { order[++n] = name; seen[name] = 1 }
		for (i = 3; i < NF; i += 2) {
			k = name SUBSEP $(i + 1)
			if (!(k in v) || $i + 0 < v[k] + 0) v[k] = $i
		}
	}
	END {
		for (j = 1; j <= n; j++) {
			nm = order[j]
			printf "%s %s %s\n", nm, v[nm, "cpu/claude"], v[nm, "peak/claude"]
		}
	}'
}
summarise old >"$out/old.sum"
summarise new >"$out/new.sum"
echo "BenchmarkAgentFormats100MB, $runs interleaved rounds, minimum of each ratio; old = $base, new = $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet || echo +changes)"
echo
echo "| format | CPU / Claude Code, old | new | peak heap / Claude Code, old | new |"
echo "|---|---|---|---|---|"
join <(sort "$out/old.sum") <(sort "$out/new.sum") | awk '{ printf "| %s | %.2f | %.2f | %.2f | %.2f |\n", $1, $2, $4, $3, $5 }'
