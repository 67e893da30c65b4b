#!/usr/bin/env bash
# bench/watch.sh: whole-process CPU of `handoff watch` on a real-content
# session (bench/realgen) that already holds $MB MB, per appended line and
# per second idle, for the old ($BASE) and the new build in the same run.
#
# The watched file is the first ~$MB MB of one generated session; the
# same $LINES lines, those that follow its largest size's head, are
# appended at every size (so the sizes differ only in the session already
# read, not in the work appended), one every $GAP seconds, while the
# process's utime+stime (/proc/PID/stat) is read before and after. The
# idle figure is the CPU it spends over $IDLE seconds with nothing appended
# (it polls the file every second and wakes on file events). The context
# window is set far above the session's use so no checkpoint fires.
#
# Usage: bench/watch.sh   (SIZES="1 50" AGENT=claude-code LINES=300 GAP=0.05
#        IDLE=10 RUNS=3 BASE=15ec08c SHARED=../shared/transcripts)
# Each figure is the minimum of $RUNS rounds, old and new alternated.
set -euo pipefail

root=$(git rev-parse --show-toplevel)
base=${BASE:-15ec08c}
sizes=${SIZES:-1 50}
agent=${AGENT:-claude-code}
lines=${LINES:-300}
gap=${GAP:-0.05}
idle=${IDLE:-10}
runs=${RUNS:-3}
# The main checkout's sibling, also from a linked worktree.
shared=${SHARED:-$(cd "$(git rev-parse --path-format=absolute --git-common-dir)/../.." && pwd)/shared/transcripts}

tmp=$(mktemp -d)
pids=()
cleanup() {
	for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
	git -C "$root" worktree remove --force "$tmp/old" >/dev/null 2>&1 || true
	rm -rf "$tmp"
}
trap cleanup EXIT

echo "building new and old ($base)..." >&2
(cd "$root" && go build -o "$tmp/handoff-new" ./cmd/handoff && go build -o "$tmp/realgen" ./bench/realgen)
git -C "$root" worktree add --quiet --detach "$tmp/old" "$base"
(cd "$tmp/old" && go build -o "$tmp/handoff-old" ./cmd/handoff)

# cpu PID: nanoseconds the process's threads have run (schedstat: no
# 10 ms clock ticks, which made a few hundred appends' figure jump by a
# third between runs). Go parks its threads rather than ending them, so
# the sum over the live ones is the process's.
cpu() { cat /proc/"$1"/task/*/schedstat 2>/dev/null | awk '{ s += $1 } END { printf "%d\n", s }'; }

# caught PID BYTES: waits until the process has read BYTES in all
# (/proc/PID/io rchar: the follower reads at offsets, so its descriptor's
# position says nothing), then 2 s more for the last lines' work. CPU going
# quiet is no sign: a build that collects back to back never goes quiet.
caught() {
	until (($(awk '$1 == "rchar:" {print $2}' "/proc/$1/io") >= $2)); do
		sleep 0.5
	done
	sleep 2
}
rchar() { awk '$1 == "rchar:" {print $2}' "/proc/$1/io"; }

echo "handoff watch, whole-process CPU (schedstat), minimum of $runs round(s); $(nproc) cores; load $(cut -d' ' -f1-3 /proc/loadavg); old = $base"
printf '%-4s %6s %10s %12s %14s\n' build MB catch-up-s "ms/append" "idle ms/s"
largest=$(printf '%s\n' $sizes | sort -n | tail -n 1)
src=$tmp/src.jsonl
"$tmp/realgen" -src "$shared/$agent" -size $(((largest << 20) + (1 << 20))) "$src"
# The lines after the largest head are what every size has appended.
LC_ALL=C awk -v n=$((largest << 20)) -v m="$lines" '{ s += length($0) + 1 } s > n { print; if (++k == m) exit }' "$src" >"$tmp/appended"
for mb in $sizes; do
	# The first $mb MB (whole lines) is the session so far.
	LC_ALL=C awk -v n=$((mb << 20)) '{ s += length($0) + 1; if (s > n) exit; print }' "$src" >"$tmp/head-$mb"
done

# measure BUILD MB: "catch-up-s ms/append idle-ms/s" of one watch run.
measure() {
	local v=$1 mb=$2 f=$tmp/watch-$1.jsonl
	cp "$tmp/head-$mb" "$f"
	rm -f "$tmp/$v.db"
	HANDOFF_DB=$tmp/$v.db "$tmp/handoff-$v" watch "$f" --context-window 1000000000 --no-git --budget 500 \
		>/dev/null 2>"$tmp/$v.err" &
	local pid=$!
	pids+=("$pid")
	caught "$pid" "$(stat -c %s "$f")"
	local catch c1 c2 t1 r1 s1 span
	catch=$(cpu "$pid") # the catch-up's CPU, and where the idle span starts
	sleep "$idle"
	c1=$(cpu "$pid")
	t1=$(date +%s.%N) r1=$(rchar "$pid") s1=$(stat -c %s "$f")
	while IFS= read -r l; do
		printf '%s\n' "$l" >>"$f"
		sleep "$gap"
	done <"$tmp/appended"
	caught "$pid" $((r1 + $(stat -c %s "$f") - s1))
	c2=$(cpu "$pid")
	span=$(awk -v a="$t1" -v b="$(date +%s.%N)" 'BEGIN {print b - a}')
	kill "$pid"
	wait "$pid" 2>/dev/null || true
	# The idle share of the append phase's span is taken out.
	awk -v c="$catch" -v i0="$catch" -v i1="$c1" -v a="$c2" -v s="$idle" -v n="$(wc -l <"$tmp/appended")" -v sp="$span" 'BEGIN {
		idle = (i1 - i0) / 1e6 / s
		printf "%.2f %.3f %.3f\n", c / 1e9, ((a - i1) / 1e6 - idle * sp) / n, idle
	}'
}

declare -A best
for ((round = 1; round <= runs; round++)); do
	for mb in $sizes; do
		for v in old new; do
			read -r catch per idlems < <(measure "$v" "$mb")
			k=$v/$mb
			if [[ -z ${best[$k]:-} ]]; then
				best[$k]="$catch $per $idlems"
			else
				best[$k]=$(echo "${best[$k]}" | awk -v c="$catch" -v p="$per" -v i="$idlems" \
					'{printf "%s %s %s\n", ($1 < c ? $1 : c), ($2 < p ? $2 : p), ($3 < i ? $3 : i)}')
			fi
		done
	done
done
for mb in $sizes; do
	for v in old new; do
		read -r catch per idlems <<<"${best[$v/$mb]}"
		printf '%-4s %6s %10s %12s %14s\n' "$v" "$mb" "$catch" "$per" "$idlems"
	done
done
