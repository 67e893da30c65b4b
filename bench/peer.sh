#!/usr/bin/env bash
# bench/peer.sh: every real Claude Code and Codex transcript in
# ../shared/transcripts beside the closest peer, deja-vu
# (github.com/vshulcz/deja-vu): whole-process CPU (user+sys, rusage) of
#
#   base   handoff compile --no-store --no-git, built from $BASE
#   new    the same, built from this tree
#   floor  bench/jsondecode: a plain line-by-line encoding/json decode
#   deja   deja-vu's own handoff of the session: `deja index` of a fresh
#          index holding only this file, then `deja handoff <id>`
#
# run alternately, $RUNS rounds; each is the minimum of its rounds (a busy
# machine disturbs the minimum least). Prints new/base, new/deja and
# new/floor per file, then the median and worst new/deja.
#
#   RUNS=5 BASE=main DEJA_SRC=/work/.mirror/vshulcz+deja-vu/repo bench/peer.sh
#
# DEJA_SRC is a git directory of deja-vu (what `fetch github:vshulcz/deja-vu`
# brings); DEJA=path uses a deja binary already built instead.
set -euo pipefail
cd "$(dirname "$0")/.."
BASE=${BASE:-main}
RUNS=${RUNS:-5}
SHARED=${SHARED:-../shared/transcripts}
DEJA_SRC=${DEJA_SRC:-/work/.mirror/vshulcz+deja-vu/repo}
[[ -d $SHARED ]] || { echo "bench/peer.sh: $SHARED not present" >&2; exit 1; }

work=$(mktemp -d)
trap 'git worktree remove --force "$work/base" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
git worktree add --detach -q "$work/base" "$BASE"
(cd "$work/base" && go build -o "$work/handoff-base" ./cmd/handoff)
go build -o "$work/handoff-new" ./cmd/handoff
go build -o "$work/jsondecode" ./bench/jsondecode
deja=${DEJA:-}
if [[ -z $deja ]]; then
	mkdir -p "$work/deja-src"
	git --git-dir="$DEJA_SRC" archive HEAD | tar -x -C "$work/deja-src"
	(cd "$work/deja-src" && go build -o "$work/deja" ./cmd/deja)
	deja=$work/deja
fi

python3 - "$work" "$deja" "$RUNS" "$SHARED" <<'PY'
import glob, os, re, resource, shutil, statistics, subprocess, sys
work, deja, runs, shared = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]

def cpu(cmd, env=None):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime

def deja_run(path, agent):
    """deja index of a fresh store holding only path, then deja handoff."""
    d = os.path.join(work, "dj")
    shutil.rmtree(d, ignore_errors=True)
    for sub in ("home", "claude/proj", "codex/sessions/2025/01/01"):
        os.makedirs(os.path.join(d, sub))
    name = os.path.basename(path)
    if agent == "claude-code":
        shutil.copy(path, os.path.join(d, "claude/proj", name))
    else:
        shutil.copy(path, os.path.join(d, "codex/sessions/2025/01/01", "rollout-2025-01-01T00-00-00-" + name))
    env = dict(os.environ, HOME=d + "/home", XDG_CONFIG_HOME="", DEJA_CLAUDE_ROOT=d + "/claude",
               DEJA_CODEX_ROOT=d + "/codex", DEJA_INDEX_DIR=d + "/index.db", DEJA_NOTES_FILE=d + "/n.jsonl",
               DEJA_WARMUP_SENTINEL=d + "/wg", DEJA_OPENCODE_DB=d + "/oc.db", DEJA_AIDER_ROOTS=d + "/aider",
               DEJA_GOOSE_ROOT=d + "/goose")
    t = cpu([deja, "index"], env)
    # The session's id as deja names it (a forked Codex rollout goes by its
    # parent's), from `deja last`, untimed.
    last = subprocess.run([deja, "last", "1"], env=env, capture_output=True, text=True, check=True).stdout
    m = re.search(r"· ([0-9A-Za-z-]{8,})\]", last)
    if not m:
        raise SystemExit(f"bench/peer.sh: deja indexed no session from {path}: {last!r}")
    return t + cpu([deja, "handoff", m.group(1)[:8]], env)

rows = []
for agent in ("claude-code", "codex"):
    for path in sorted(glob.glob(os.path.join(shared, agent, "*.jsonl"))):
        t = {k: [] for k in ("base", "new", "floor", "deja")}
        for _ in range(runs):
            for v in ("base", "new"):
                t[v].append(cpu([os.path.join(work, "handoff-" + v), "compile", "--no-store", "--no-git", path]))
            t["floor"].append(cpu([os.path.join(work, "jsondecode"), path]))
            t["deja"].append(deja_run(path, agent))
        rows.append((os.path.basename(path), {k: min(v) for k, v in t.items()}))
print(f"CPU seconds, minimum of {runs} interleaved rounds")
print(f"{'file':56} {'base':>6} {'new':>6} {'floor':>6} {'deja':>6} | {'new/base':>8} {'new/deja':>8} {'new/floor':>9}")
for name, m in rows:
    print(f"{name[:56]:56} {m['base']:6.3f} {m['new']:6.3f} {m['floor']:6.3f} {m['deja']:6.3f} | "
          f"{m['new'] / m['base']:8.2f} {m['new'] / m['deja']:8.2f} {m['new'] / m['floor']:9.2f}")
nd = [m["new"] / m["deja"] for _, m in rows]
bd = [m["base"] / m["deja"] for _, m in rows]
print(f"new/deja median {statistics.median(nd):.2f}, worst {max(nd):.2f} (bars 0.5, 0.8); "
      f"base/deja median {statistics.median(bd):.2f}, worst {max(bd):.2f}")
PY
