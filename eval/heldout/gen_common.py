"""Record builders shared by make_transcripts.py. The record shapes copy the real
files in ../shared/transcripts (see FORMATS.md there); the content is invented."""
import json
import uuid as _uuid
from datetime import datetime, timedelta


class Clock:
    def __init__(self, start):
        self.t = datetime.fromisoformat(start)

    def tick(self, s=7):
        self.t += timedelta(seconds=s)
        return self.t.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (self.t.microsecond // 1000)


def uid(seed, n):
    return str(_uuid.uuid5(_uuid.NAMESPACE_URL, "%s/%d" % (seed, n)))


class Claude:
    """Claude Code session JSONL (2.0.5x envelope)."""

    def __init__(self, seed, cwd, branch, start, version="2.0.58", model="claude-sonnet-4-5-20250929"):
        self.seed, self.cwd, self.branch, self.version, self.model = seed, cwd, branch, version, model
        self.sid = uid(seed, 0)
        self.clock = Clock(start)
        self.lines, self.n, self.parent = [], 0, None
        self.tool_n = 0
        self.ctx = 18000

    def _env(self, typ, **kw):
        self.n += 1
        u = uid(self.seed, self.n)
        d = {"parentUuid": self.parent, "isSidechain": False, "userType": "external", "cwd": self.cwd,
             "sessionId": self.sid, "version": self.version, "gitBranch": self.branch, "type": typ}
        d.update(kw)
        d["uuid"] = u
        d["timestamp"] = self.clock.tick()
        self.lines.append(d)
        self.parent = u
        return d

    def raw(self, d):
        self.lines.append(d)

    def snapshot(self):
        mid = uid(self.seed, 10000 + self.n)
        self.raw({"type": "file-history-snapshot", "messageId": mid,
                  "snapshot": {"messageId": mid, "trackedFileBackups": {}, "timestamp": self.clock.tick(1)},
                  "isSnapshotUpdate": False})

    def user(self, text, **kw):
        return self._env("user", message={"role": "user", "content": text}, **kw)

    def meta(self, text):
        return self._env("user", message={"role": "user", "content": [{"type": "text", "text": text}]}, isMeta=True)

    def _asst(self, block, stop=None):
        self.ctx += 900
        msg = {"model": self.model, "id": "msg_01" + uid(self.seed, 5000 + self.n).replace("-", "")[:22],
               "type": "message", "role": "assistant", "content": [block], "stop_reason": stop, "stop_sequence": None,
               "usage": {"input_tokens": 4, "cache_creation_input_tokens": 600, "cache_read_input_tokens": self.ctx,
                         "cache_creation": {"ephemeral_5m_input_tokens": 600, "ephemeral_1h_input_tokens": 0},
                         "output_tokens": 180, "service_tier": "standard"}}
        return self._env("assistant", message=msg, requestId="req_011C" + uid(self.seed, 7000 + self.n)[:18].replace("-", ""))

    def say(self, text, stop=None):
        return self._asst({"type": "text", "text": text}, stop)

    def think(self, text):
        return self._asst({"type": "thinking", "thinking": text, "signature": "EqQBCkYIBxgCKkB" + "x" * 40})

    def tool(self, name, inp, result, is_error=False, tur=None):
        self.tool_n += 1
        tid = "toolu_01" + uid(self.seed, 9000 + self.tool_n).replace("-", "")[:22]
        a = self._asst({"type": "tool_use", "id": tid, "name": name, "input": inp}, "tool_use")
        block = {"tool_use_id": tid, "type": "tool_result", "content": result}
        if is_error:
            block["is_error"] = True
        if tur is None:
            tur = ("Error: " + result) if is_error else {"stdout": result, "stderr": "", "interrupted": False, "isImage": False}
        self._env("user", message={"role": "user", "content": [block]}, toolUseResult=tur,
                  sourceToolAssistantUUID=a["uuid"])

    def system(self, **kw):
        return self._env("system", **kw)

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for d in self.lines:
                f.write(json.dumps(d, ensure_ascii=False, separators=(",", ":")) + "\n")


class Codex:
    """Codex CLI rollout JSONL."""

    def __init__(self, seed, cwd, start, cli_version, model, originator="codex_cli_rs", branch="main"):
        self.seed, self.cwd, self.model = seed, cwd, model
        self.clock = Clock(start)
        self.lines = []
        self.calls = 0
        self.turn = None
        self.in_tokens = 9000
        self.add("session_meta", {"id": uid(seed, 0), "timestamp": self.clock.tick(0), "cwd": cwd,
                                  "originator": originator, "cli_version": cli_version, "source": "cli",
                                  "model_provider": "openai",
                                  "base_instructions": {"text": "You are Codex, a coding agent based on GPT-5. You and the user share the same workspace and collaborate to achieve the user's goals."},
                                  "git": {"commit_hash": uid(seed, 1).replace("-", "")[:40], "branch": branch,
                                          "repository_url": "git@github.com:example/%s.git" % cwd.rsplit("/", 1)[-1]}})

    def add(self, typ, payload):
        self.lines.append({"timestamp": self.clock.tick(3), "type": typ, "payload": payload})

    def item(self, payload):
        self.add("response_item", payload)

    def ev(self, payload):
        self.add("event_msg", payload)

    def injected(self, text):
        self.item({"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]})

    def developer(self, text):
        self.item({"type": "message", "role": "developer", "content": [{"type": "input_text", "text": text}]})

    def user(self, text):
        self.turn = uid(self.seed, 100 + len(self.lines))
        self.add("turn_context", {"turn_id": self.turn, "cwd": self.cwd, "approval_policy": "on-request",
                                  "sandbox_policy": {"type": "workspace-write", "network_access": False},
                                  "model": self.model, "effort": "medium", "summary": "auto"})
        self.ev({"type": "task_started", "turn_id": self.turn, "model_context_window": 258400})
        self.item({"type": "message", "role": "user", "content": [{"type": "input_text", "text": text}]})
        self.ev({"type": "user_message", "message": text, "images": [], "local_images": [], "text_elements": []})

    def reason(self, text):
        self.item({"type": "reasoning", "summary": [{"type": "summary_text", "text": text}], "content": None,
                   "encrypted_content": "gAAAAABo" + "Q" * 60})
        self.ev({"type": "agent_reasoning", "text": text})

    def say(self, text, phase="commentary"):
        self.ev({"type": "agent_message", "message": text, "phase": phase})
        self.item({"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": text}], "phase": phase})

    def tokens(self):
        self.in_tokens += 2100
        u = {"input_tokens": self.in_tokens, "cached_input_tokens": self.in_tokens - 1500, "output_tokens": 420,
             "reasoning_output_tokens": 128, "total_tokens": self.in_tokens + 420}
        self.ev({"type": "token_count", "info": {"total_token_usage": u, "last_token_usage": u, "model_context_window": 258400},
                 "rate_limits": None})

    def call_id(self):
        self.calls += 1
        return "call_" + uid(self.seed, 3000 + self.calls).replace("-", "")[:24]

    def fcall(self, name, args, output):
        cid = self.call_id()
        self.item({"type": "function_call", "name": name, "arguments": json.dumps(args), "call_id": cid})
        self.item({"type": "function_call_output", "call_id": cid, "output": output})
        self.tokens()
        return cid

    def exec_cmd(self, cmd, out, code=0, running_session=None, wall="0.8120", extra=None):
        args = {"cmd": cmd, "workdir": self.cwd, "yield_time_ms": 10000, "max_output_tokens": 6000}
        if extra:
            args.update(extra)
        status = ("Process running with session ID %d" % running_session) if running_session else ("Process exited with code %d" % code)
        body = "Chunk ID: %s\nWall time: %s seconds\n%s\nOriginal token count: %d\nOutput:\n%s" % (
            uid(self.seed, 4000 + self.calls)[:6], wall, status, max(1, len(out) // 4), out)
        return self.fcall("exec_command", args, body)

    def exec_fail(self, cmd, message, extra=None):
        args = {"cmd": cmd, "workdir": self.cwd, "yield_time_ms": 10000, "max_output_tokens": 6000}
        if extra:
            args.update(extra)
        return self.fcall("exec_command", args, "exec_command failed: SandboxDenied { message: \"%s\" }" % message)

    def write_stdin(self, session, out, code=None, wall="5.0021"):
        status = ("Process exited with code %d" % code) if code is not None else ("Process running with session ID %d" % session)
        body = "Chunk ID: %s\nWall time: %s seconds\n%s\nOriginal token count: %d\nOutput:\n%s" % (
            uid(self.seed, 4500 + self.calls)[:6], wall, status, max(1, len(out) // 4), out)
        return self.fcall("write_stdin", {"session_id": session, "chars": "", "yield_time_ms": 30000, "max_output_tokens": 6000}, body)

    def patch(self, text, files, ok=True):
        cid = self.call_id()
        self.item({"type": "custom_tool_call", "status": "completed", "call_id": cid, "name": "apply_patch", "input": text})
        if ok:
            out = json.dumps({"output": "Success. Updated the following files:\n" + "".join("%s %s\n" % f for f in files),
                              "metadata": {"exit_code": 0, "duration_seconds": 0.0}})
        else:
            out = files  # a bare failure string
        self.item({"type": "custom_tool_call_output", "call_id": cid, "output": out})
        self.tokens()

    def complete(self, text):
        self.say(text, phase="final_answer")
        self.ev({"type": "task_complete", "turn_id": self.turn, "last_agent_message": text})

    def write(self, path):
        with open(path, "w", encoding="utf-8") as f:
            for d in self.lines:
                f.write(json.dumps(d, ensure_ascii=False, separators=(",", ":")) + "\n")
