#!/usr/bin/env python3
"""Writes the held-out synthetic transcripts into ./transcripts (run from anywhere).

The sessions are invented, written to be realistic; record shapes copy the real
files in ../shared/transcripts. The answer keys in ./labels were written from
these transcripts alone. Regenerating is deterministic (fixed clocks and uuid5 ids).
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import make_codex  # noqa: E402
import make_cc  # noqa: E402
import make_other  # noqa: E402

OUT = os.path.join(HERE, "transcripts")
SESSIONS = {
    "claude-code/geocode-ratelimit-todowrite.jsonl": make_cc.cc_ratelimit,
    "claude-code/ledgerlite-compact-redirect.jsonl": make_cc.cc_compact,
    "codex/invoice-exec_command-write_stdin.jsonl": make_codex.codex_exec_command,
    "codex/sitegen-exec-codemode.jsonl": make_codex.codex_exec_js,
    "aider-md/budget-cli.aider.chat.history.md": make_other.aider_md,
    "gemini/web-app-docker-slim.json": make_other.gemini_json,
    "openhands-traj/pycron-dst-finish.json": make_other.openhands,
    "swe-agent-traj/durations-parse-submit.traj": make_other.swe_agent,
}

for rel, fn in SESSIONS.items():
    p = os.path.join(OUT, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    fn(p)
    print(rel)
