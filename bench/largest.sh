#!/usr/bin/env bash
# bench/largest.sh: compile CPU (user+sys, via rusage) of handoff built from
# $BASE (default b5fa5b1, the commit issue 35 measures against) beside
# handoff built from this tree, on the $FILES largest transcripts in
# ../shared/transcripts and a one-line session (the fixed cost), budget
# 2000. Runs alternate old/new, $RUNS rounds; it prints the minimum of
# each, which a busy machine disturbs least, and the new/old ratio.
#
#   BASE=b5fa5b1 RUNS=21 FILES=5 bench/largest.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${BASE:-b5fa5b1}
RUNS=${RUNS:-21}
FILES=${FILES:-5}
SHARED=${SHARED:-../shared/transcripts}
[[ -d $SHARED ]] || { echo "bench/largest.sh: $SHARED not present" >&2; exit 1; }

work=$(mktemp -d)
trap 'git worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git worktree add --detach -q "$work/base" "$BASE"
(cd "$work/base" && go build -o "$work/old" ./cmd/handoff)
go build -o "$work/new" ./cmd/handoff
printf '{"type":"user","message":{"role":"user","content":"hi"},"uuid":"a","timestamp":"2025-01-01T00:00:00Z","sessionId":"s"}\n' > "$work/one-line.jsonl"

mapfile -t files < <(find "$SHARED" -type f -name '*.jsonl' -printf '%s %p\n' | sort -rn | head -n "$FILES" | cut -d' ' -f2-)
python3 - "$work/old" "$work/new" "$RUNS" "$work/one-line.jsonl" "${files[@]}" <<'PY'
import os, resource, subprocess, sys
old, new, runs, files = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4:]
cpu = {(b, f): [] for b in (old, new) for f in files}
for _ in range(runs):
    for f in files:
        for b in (old, new):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            with open(f) as stdin:
                subprocess.run([b, "compile", "--no-store", "--no-git", "-q", "--budget", "2000"],
                               stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu[(b, f)].append(after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime)
print(f"{'file':44} {'old s':>7} {'new s':>7} {'new/old':>7}")
for f in files:
    o, n = min(cpu[(old, f)]), min(cpu[(new, f)])
    print(f"{os.path.basename(f)[:44]:44} {o:7.3f} {n:7.3f} {n / o:7.2f}")
PY
