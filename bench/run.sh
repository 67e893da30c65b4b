#!/usr/bin/env bash
# bench/run.sh: whole-process CPU time (user+sys, median of $RUNS runs) of
# handoff built from the old commit ($BASE, default 238b34d, checked out
# with `git worktree add` into a temp dir) beside handoff built from this
# tree, on the same machine in the same run, and their ratios:
#
#   formats      handoff's fixed cost as the old commit can show it (it
#                has no --version)
#   version      handoff --version, the fixed cost issue 12 compares the
#                1 KB compile and the Stop hook with (new build only)
#   compile-1KB  compile --no-store --no-git of a generated ~1 KB transcript
#   compile-max  the same on the largest file in $SHARED/claude-code
#   stop-hook    hook claude, Stop event, on vsla-gpu-cuda-727lines.jsonl
#                (fresh database each run)
#   json-decode  bench/jsondecode: a plain line-by-line encoding/json
#                decode of the largest file, the floor compile-max is
#                compared with
#
# Then memory (skip with MEMORY=0): peak RSS (GNU time's %M) of compile
# --no-store --no-git, old and new, on synthetic Claude Code transcripts
# written by bench/synth (8 KiB of tool output per round) of 25 MB and
# 100 MB, the growth between them in MiB per MB of file, and on one 50 MB
# tool-result line, as a ratio to the line.
#
# Usage: bench/run.sh   (RUNS=7 BASE=238b34d SHARED=../shared/transcripts)
# Old and new run alternately, one of each per round (and the JSON decode
# floor beside compile-max), so a change in the machine's load lands on
# both sides alike: run all old cases first and a busy neighbour could
# invent or hide a 20% difference.
# CPU time is perf stat's task-clock (all threads and children, sub-ms
# resolution) when perf works, else GNU time's user+sys (10 ms resolution,
# too coarse for the fixed cost). Takes about a minute once the build cache
# is warm.
set -euo pipefail

root=$(git rev-parse --show-toplevel)
base=${BASE:-238b34d}
runs=${RUNS:-7}
shared=${SHARED:-$root/../shared/transcripts}
if perf stat -x, -e task-clock -o /dev/null true 2>/dev/null; then
	clock=perf
elif [[ -x /usr/bin/time ]]; then
	clock=time
else
	echo "bench: needs perf (linux-perf) or GNU time at /usr/bin/time" >&2
	exit 1
fi
[[ -d $shared/claude-code ]] || { echo "bench: no transcripts at $shared" >&2; exit 1; }

tmp=$(mktemp -d)
cleanup() {
	git -C "$root" worktree remove --force "$tmp/old" >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT

echo "building old ($base) and new ($(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- . || echo +dirty))..." >&2
git -C "$root" worktree add --quiet --detach "$tmp/old" "$base"
(cd "$tmp/old" && go build -o "$tmp/handoff-old" ./cmd/handoff)
(cd "$root" && go build -o "$tmp/handoff-new" ./cmd/handoff && go build -o "$tmp/jsondecode" ./bench/jsondecode &&
	go build -o "$tmp/synth" ./bench/synth)

largest=$(ls -S "$shared"/claude-code/*.jsonl | head -n 1)
stopfile=$shared/claude-code/vsla-gpu-cuda-727lines.jsonl
small=$tmp/small.jsonl
cat >"$small" <<'JSONL'
{"parentUuid":null,"isSidechain":false,"userType":"external","cwd":"/home/dev/api","sessionId":"bench-1","version":"1.0.98","gitBranch":"main","type":"user","message":{"role":"user","content":"Add a token bucket rate limiter to the API server; keep the tests green."},"uuid":"u1","timestamp":"2025-07-19T10:00:00.000Z"}
{"parentUuid":"u1","isSidechain":false,"cwd":"/home/dev/api","sessionId":"bench-1","version":"1.0.98","gitBranch":"main","type":"assistant","message":{"id":"msg_A","type":"message","role":"assistant","model":"claude-opus-4-20250514","content":[{"type":"text","text":"I'll add limiter.go with a token bucket and run the tests first."}],"usage":{"input_tokens":10,"cache_creation_input_tokens":100,"cache_read_input_tokens":0,"output_tokens":20}},"requestId":"req_A","uuid":"a1","timestamp":"2025-07-19T10:00:04.000Z"}
{"parentUuid":"a1","isSidechain":false,"userType":"external","cwd":"/home/dev/api","sessionId":"bench-1","version":"1.0.98","gitBranch":"main","type":"user","message":{"role":"user","content":"Good, go on."},"uuid":"u2","timestamp":"2025-07-19T10:00:09.000Z"}
JSONL

export HOME=$tmp/home XDG_DATA_HOME=$tmp/data XDG_CONFIG_HOME=$tmp/config
mkdir -p "$HOME" "$XDG_DATA_HOME" "$XDG_CONFIG_HOME"
unset HANDOFF_DB

# once OUT CMD... : runs CMD once (stdin from $stdin, default /dev/null)
# and appends its CPU milliseconds to OUT. A failing run aborts.
stdin=/dev/null
once() {
	local out=$1
	shift
	rm -f "$tmp/hook.db"
	if [[ $clock == perf ]]; then
		perf stat -x, -e task-clock -o "$tmp/perf" "$@" <"$stdin" >/dev/null 2>"$tmp/stderr" ||
			{ echo "bench: failed: $*" >&2; cat "$tmp/stderr" >&2; exit 1; }
		awk -F, '$3 == "task-clock" {print $1}' "$tmp/perf" >>"$out"
	else
		/usr/bin/time -o "$tmp/perf" -f '%U %S' "$@" <"$stdin" >/dev/null 2>"$tmp/stderr" ||
			{ echo "bench: failed: $*" >&2; cat "$tmp/stderr" >&2; exit 1; }
		awk '{print 1000 * ($1 + $2)}' "$tmp/perf" >>"$out"
	fi
}
median() { sort -g "$1" | awk '{a[NR] = $1} END {printf "%.1f\n", a[int((NR + 1) / 2)]}'; }

# pair CASE ARGS... : runs old and new (and, for compile-max, the JSON
# decode floor) alternately, $runs rounds, so a change in the machine's
# load lands on both sides alike; sets old[CASE] and new[CASE] to the
# medians. @BIN@ in ARGS is replaced by the binary.
declare -A old new
floor=
pair() {
	local k=$1 i v a
	shift
	rm -f "$tmp/t-old" "$tmp/t-new" "$tmp/t-floor"
	for ((i = 0; i < runs; i++)); do
		for v in old new; do
			[[ $k == version && $v == old ]] && continue # the old build may have no --version
			local args=()
			for a in "$@"; do args+=("${a//@BIN@/$tmp/handoff-$v}"); done
			once "$tmp/t-$v" "${args[@]}"
		done
		[[ $k == compile-max ]] && once "$tmp/t-floor" "$tmp/jsondecode" "$largest"
	done
	old[$k]=-
	[[ -s $tmp/t-old ]] && old[$k]=$(median "$tmp/t-old")
	new[$k]=$(median "$tmp/t-new")
	[[ $k == compile-max ]] && floor=$(median "$tmp/t-floor")
	return 0
}

pair formats @BIN@ formats
pair version @BIN@ --version
pair compile-1KB @BIN@ compile --no-store --no-git "$small"
pair compile-max @BIN@ compile --no-store --no-git "$largest"
printf '{"session_id":"bench-stop","transcript_path":"%s","cwd":"%s","hook_event_name":"Stop"}\n' "$stopfile" "$tmp" >"$tmp/stop.json"
stdin=$tmp/stop.json
pair stop-hook @BIN@ --db "$tmp/hook.db" hook claude --no-git
stdin=/dev/null

ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
echo "whole-process CPU ms ($clock), median of $runs rounds, old and new alternated; $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "largest: $(basename "$largest") ($(stat -c %s "$largest") bytes); 1KB: $(stat -c %s "$small") bytes"
printf '%-12s %8s %8s %9s\n' case old new new/old
for k in formats compile-1KB compile-max stop-hook; do
	printf '%-12s %8s %8s %9s\n' "$k" "${old[$k]}" "${new[$k]}" "$(ratio "${new[$k]}" "${old[$k]}")"
done
printf '%-12s %8s\n' json-decode "$floor"
echo "ratios (target in issue 12):"
for v in old new; do
	declare -n r=$v
	echo "  $v: compile-max/json-decode $(ratio "${r[compile-max]}" "$floor") (<= 4)" \
		" compile-1KB/formats $(ratio "${r[compile-1KB]}" "${r[formats]}") (<= 13)" \
		" stop-hook/formats $(ratio "${r[stop-hook]}" "${r[formats]}") (<= 8)"
	unset -n r
done
printf '%-12s %8s %8s\n' version - "${new[version]}"
echo "  new: compile-1KB/version $(ratio "${new[compile-1KB]}" "${new[version]}") (<= 13)" \
	" stop-hook/version $(ratio "${new[stop-hook]}" "${new[version]}") (<= 8)"

[[ ${MEMORY:-1} == 0 ]] && exit 0
[[ -x /usr/bin/time ]] || { echo "bench: memory needs GNU time at /usr/bin/time" >&2; exit 1; }
"$tmp/synth" -size $((25 << 20)) "$tmp/m25.jsonl"
"$tmp/synth" -size $((100 << 20)) "$tmp/m100.jsonl"
"$tmp/synth" -line $((50 << 20)) "$tmp/line50.jsonl"
# rss FILE: median peak RSS in KiB of compiling FILE with each binary, 3 runs.
rss() {
	local bin=$1 file=$2 i
	for ((i = 0; i < 3; i++)); do
		/usr/bin/time -o "$tmp/rss" -f '%M' "$bin" compile --no-store --no-git "$file" >/dev/null 2>"$tmp/stderr" ||
			{ echo "bench: failed: $bin compile $file" >&2; cat "$tmp/stderr" >&2; exit 1; }
		tail -n 1 "$tmp/rss"
	done | sort -g | sed -n 2p
}
mib() { awk -v k="$1" 'BEGIN { printf "%.1f", k / 1024 }'; }
echo "peak RSS MiB of compile (GNU time %M, median of 3)"
printf '%-12s %8s %8s\n' case old new
declare -A mem
for v in old new; do
	mem[$v-25]=$(rss "$tmp/handoff-$v" "$tmp/m25.jsonl")
	mem[$v-100]=$(rss "$tmp/handoff-$v" "$tmp/m100.jsonl")
	mem[$v-line]=$(rss "$tmp/handoff-$v" "$tmp/line50.jsonl")
done
line=$(stat -c %s "$tmp/line50.jsonl")
mb25=$(stat -c %s "$tmp/m25.jsonl") mb100=$(stat -c %s "$tmp/m100.jsonl")
for k in 25 100 line; do
	printf '%-12s %8s %8s\n' "rss-$k" "$(mib "${mem[old-$k]}")" "$(mib "${mem[new-$k]}")"
done
for v in old new; do
	growth=$(awk -v a="${mem[$v-25]}" -v b="${mem[$v-100]}" -v x="$mb25" -v y="$mb100" \
		'BEGIN { printf "%.3f", ((b - a) / 1024) / ((y - x) / 1048576) }')
	echo "  $v: growth $growth MiB/MB (<= 0.3), peak at 100 MB $(mib "${mem[$v-100]}") MiB (<= 100)," \
		"50 MB line $(awk -v a="${mem[$v-line]}" -v l="$line" 'BEGIN { printf "%.2f", a * 1024 / l }')x the line (<= 3)"
done
