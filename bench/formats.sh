#!/usr/bin/env bash
# bench/formats.sh: the 100 MB table of issue 29. Runs
# BenchmarkAgentFormats100MB (transcript/agents_bench_test.go: a 100 MB
# synthetic session of each agent format, parsed from a file) in a test
# binary built from $BASE and in one built from this tree, alternately,
# $RUNS rounds, and prints per format the CPU time and the sampled peak
# heap as ratios to the Claude Code decoder's in the same binary: the
# format's minimum over the rounds over Claude Code's minimum (a ratio of
# minima: the minimum of per-round ratios would take a round whose
# Claude Code parse a busy neighbour slowed), before and after.
# Both binaries run this tree's benchmark file, so the shapes and the
# measurement are the same and only the readers differ.
#
# Usage: bench/formats.sh   (BASE=0f08bc4 RUNS=3 FILTER=regexp of formats)
# RUNS=0 OUT=dir prints the table again from a finished run's output.
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

if [[ $runs -gt 0 ]]; then
	git -C "$root" worktree add --detach "$old" "$base" >/dev/null 2>&1
	cp "$root/transcript/agents_bench_test.go" "$old/transcript/agents_bench_test.go"
	(cd "$old" && go test -c -o "$out/old.test" ./transcript/)
	(cd "$root" && go test -c -o "$out/new.test" ./transcript/)
fi

bench="BenchmarkAgentFormats100MB/^(claude-code|$filter)\$"
for ((r = 1; r <= runs; r++)); do
	for v in old new; do
		echo "round $r: $v" >&2
		(cd "$root/transcript" && "$out/$v.test" -test.run XXX -test.bench "$bench" -test.benchtime 1x) >"$out/$v.$r.txt"
	done
done

# One line per format: its name, then its CPU seconds and peak MiB (the
# minimum over the rounds) over Claude Code's.
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
			printf "%s %.4f %.4f\n", nm, v[nm, "cpu-s"] / v["claude-code", "cpu-s"], v[nm, "peak-MiB"] / v["claude-code", "peak-MiB"]
		}
	}'
}
summarise old >"$out/old.sum"
summarise new >"$out/new.sum"
rounds=$(ls "$out"/new.*.txt | wc -l)
echo "BenchmarkAgentFormats100MB, $rounds interleaved rounds, ratios of minima; old = $base, new = $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet || echo +changes)"
echo
echo "| format | CPU / Claude Code, old | new | peak heap / Claude Code, old | new |"
echo "|---|---|---|---|---|"
join <(sort "$out/old.sum") <(sort "$out/new.sum") | awk '{ printf "| %s | %.2f | %.2f | %.2f | %.2f |\n", $1, $2, $4, $3, $5 }'
