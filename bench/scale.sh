#!/usr/bin/env bash
# bench/scale.sh: how compile's cost grows with the transcript, on real
# content. bench/realgen replays the shared Claude Code and Codex sessions
# (fresh ids, shifted timestamps) into one session per size; each file is
# compiled (--no-store --no-git) by handoff built from $BASE and from this
# tree, alternately, $RUNS rounds, and the table gives per agent and size:
#
#   cpu      whole-process user+sys seconds (GNU time; minimum of the
#            rounds, which a busy machine disturbs least)
#   ms/MB    cpu per MB of file (MB = 2^20 bytes)
#   rss      peak RSS in MiB (GNU time's %M; minimum)
#   MiB/MB   rss per MB of file
#   new/old  the CPU ratio, measured in the same rounds
#
# then, per agent, how flat the new build's ms/MB is: the largest over the
# smallest, over every size and over the sizes from 10 MB (at 1 MB the
# fixed cost of a process, ~40 ms, is a large part), and the marginal
# cost (cpu(N) - cpu(smallest)) / (N - smallest) MB.
#
# Usage: bench/scale.sh   (SIZES="1 10 50 100 200" AGENTS="claude-code codex"
#        RUNS=1 BASE=2ed2294 OLD=1 SHARED=../shared/transcripts)
# OLD=0 skips the old build (a 200 MB Codex file took it minutes). Files
# are generated once into bench/out (ignored by git) and reused.
set -euo pipefail

root=$(git rev-parse --show-toplevel)
base=${BASE:-2ed2294}
runs=${RUNS:-1}
sizes=${SIZES:-1 10 50 100 200}
agents=${AGENTS:-claude-code codex}
with_old=${OLD:-1}
# The main checkout's sibling, also from a linked worktree.
shared=${SHARED:-$(cd "$(git rev-parse --path-format=absolute --git-common-dir)/../.." && pwd)/shared/transcripts}
out=$root/bench/out
[[ -x /usr/bin/time ]] || { echo "bench: needs GNU time at /usr/bin/time" >&2; exit 1; }
mkdir -p "$out"

tmp=$(mktemp -d)
cleanup() {
	git -C "$root" worktree remove --force "$tmp/old" >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT

echo "building new ($(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- . || echo +dirty))${with_old:+ and old ($base)}..." >&2
# Each binary is run from a copy: the linker's own output sits in the page
# cache as 2 MiB pages that a process maps whole, which on this machine
# added ~11 MiB to every peak RSS (`handoff --version`: 29 MiB vs 18 MiB
# for a copy, like an installed binary).
(cd "$root" && go build -o "$tmp/built-new" ./cmd/handoff && go build -o "$tmp/realgen" ./bench/realgen)
cp "$tmp/built-new" "$tmp/handoff-new"
if [[ $with_old == 1 ]]; then
	git -C "$root" worktree add --quiet --detach "$tmp/old" "$base"
	(cd "$tmp/old" && go build -o "$tmp/built-old" ./cmd/handoff)
	cp "$tmp/built-old" "$tmp/handoff-old"
fi

# file AGENT MB: the generated transcript's path, written if missing.
file() {
	local f=$out/real-$1-$2MB.jsonl
	[[ -s $f ]] || "$tmp/realgen" -src "$shared/$1" -size $(($2 << 20)) "$f"
	echo "$f"
}

# once BIN FILE: "cpu_seconds rss_kib" of one compile.
once() {
	/usr/bin/time -o "$tmp/time" -f '%U %S %M' "$1" compile --no-store --no-git "$2" >/dev/null 2>"$tmp/stderr" ||
		{ echo "bench: failed: $1 compile $2" >&2; cat "$tmp/stderr" >&2; exit 1; }
	tail -n 1 "$tmp/time" | awk '{printf "%.2f %d\n", $1 + $2, $3}'
}
minimum() { sort -g | head -n 1; }

echo "compile --no-store --no-git, user+sys (GNU time), minimum of $runs round(s), old and new alternated;" \
	"$(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg); old = $base"
for v in old new; do
	[[ $v == old && $with_old != 1 ]] && continue
	/usr/bin/time -o "$tmp/time" -f '%M' "$tmp/handoff-$v" --version >/dev/null
	echo "  $v --version peak RSS (the process floor): $(awk '{printf "%.1f", $1 / 1024}' "$tmp/time" | tail -n 1) MiB"
done
printf '%-12s %6s | %8s %7s %7s %7s | %8s %7s %7s %7s | %7s\n' agent MB \
	old-cpu ms/MB rss MiB/MB new-cpu ms/MB rss MiB/MB new/old
for agent in $agents; do
	declare -A ms=()
	first=
	for mb in $sizes; do
		f=$(file "$agent" "$mb")
		bytes=$(stat -L -c %s "$f") # -L: bench/out may link to files generated elsewhere
		: >"$tmp/old.cpu" >"$tmp/old.rss" >"$tmp/new.cpu" >"$tmp/new.rss"
		for ((i = 0; i < runs; i++)); do
			for v in old new; do
				[[ $v == old && $with_old != 1 ]] && continue
				read -r c r < <(once "$tmp/handoff-$v" "$f")
				echo "$c" >>"$tmp/$v.cpu"
				echo "$r" >>"$tmp/$v.rss"
			done
		done
		row=()
		for v in old new; do
			if [[ -s $tmp/$v.cpu ]]; then
				c=$(minimum <"$tmp/$v.cpu") r=$(minimum <"$tmp/$v.rss")
				row+=("$c" "$(awk -v c="$c" -v b="$bytes" 'BEGIN {printf "%.1f", 1000 * c / (b / 1048576)}')"
					"$(awk -v r="$r" 'BEGIN {printf "%.1f", r / 1024}')"
					"$(awk -v r="$r" -v b="$bytes" 'BEGIN {printf "%.2f", (r / 1024) / (b / 1048576)}')")
				eval "$v=$c"
			else
				row+=(- - - -)
				eval "$v=0"
			fi
		done
		ratio=$(awk -v a="$new" -v b="$old" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }')
		printf '%-12s %6s | %8s %7s %7s %7s | %8s %7s %7s %7s | %7s\n' "$agent" "$mb" "${row[@]}" "$ratio"
		ms[$mb]=$(awk -v c="$new" -v b="$bytes" 'BEGIN {print 1000 * c / (b / 1048576)}')
		if [[ -z $first ]]; then
			first=$mb firstcpu=$new firstbytes=$bytes
		else
			marginal=$(awk -v c="$new" -v c0="$firstcpu" -v b="$bytes" -v b0="$firstbytes" \
				'BEGIN {printf "%.1f", 1000 * (c - c0) / ((b - b0) / 1048576)}')
			printf '%-12s %6s   marginal (new): %s ms/MB\n' "" "$mb" "$marginal"
		fi
	done
	flat() { printf '%s\n' "$@" | awk 'NR == 1 {lo = hi = $1} {if ($1 < lo) lo = $1; if ($1 > hi) hi = $1} END {printf "%.2f", hi / lo}'; }
	all=() big=()
	for mb in $sizes; do
		all+=("${ms[$mb]}")
		((mb >= 10)) && big+=("${ms[$mb]}")
	done
	echo "  $agent new ms/MB max/min: all sizes $(flat "${all[@]}")${big:+, from 10 MB $(flat "${big[@]}")} (<= 1.20)"
	unset ms
done
