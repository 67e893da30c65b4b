#!/usr/bin/env bash
# bench/sameprompts.sh OLD NEW [OUT]: the byte-identity check every
# performance change must pass. Compiles every file under
# ../shared/transcripts (recursively) with both binaries at budgets 500,
# 1000, 2000 and 8000 (--no-store --no-git; "Snapshot taken" lines
# stripped), and the compaction points' prefixes
# (../shared/eval/compaction/score_points.py --save-outputs), and diffs
# them. Exits 1 when any prompt differs. EXTRA lists more folders compiled
# the same way (default: the held-out eval/heldout/transcripts of the main
# checkout and /work/local-heldout, where they exist).
set -euo pipefail
old=$1 new=$2
out=${3:-$(mktemp -d)}
shared=${SHARED:-$(cd "$(dirname "$0")/../.." && pwd)/shared}
[[ -d $shared/transcripts ]] || shared=$(cd "$(git -C "$(dirname "$0")" rev-parse --path-format=absolute --git-common-dir)/../.." && pwd)/shared
mkdir -p "$out/old" "$out/new"
extra=()
# The main checkout's held-out set, also from a linked worktree.
for d in ${EXTRA-$(cd "$(git -C "$(dirname "$0")" rev-parse --path-format=absolute --git-common-dir)/.." && pwd)/eval/heldout/transcripts /work/local-heldout}; do
	[[ -d $d ]] && extra+=("$d")
done
n=0 bad=0
while IFS= read -r f; do
	for b in 500 1000 2000 8000; do
		k=$(printf '%s@%s' "${f#/}" "$b" | tr '/' '_')
		for v in old new; do
			bin=$old
			[[ $v == new ]] && bin=$new
			"$bin" compile --no-store --no-git --budget "$b" "$f" 2>&1 | grep -v '^Snapshot taken' >"$out/$v/$k" || true
		done
		n=$((n + 1))
		cmp -s "$out/old/$k" "$out/new/$k" || { bad=$((bad + 1)); echo "DIFF: $k"; }
	done
done < <(find "$shared/transcripts" ${extra[@]+"${extra[@]}"} -type f ! -name FORMATS.md ! -name 'SOURCES*.md' | sort)
for v in old new; do
	bin=$old
	[[ $v == new ]] && bin=$new
	python3 "$shared/eval/compaction/score_points.py" --cmd "$bin compile --no-store --no-git --budget {budget}" \
		--save-outputs "$out/$v-compaction" >/dev/null
done
if diff -r "$out/old-compaction" "$out/new-compaction" >/dev/null; then
	echo "compaction prefixes: same"
else
	bad=$((bad + 1))
	diff -rq "$out/old-compaction" "$out/new-compaction" || true
fi
echo "$n compiles compared ($out), $bad differ"
((bad == 0))
