// handoff dashboard: the copy button and the pause/resume actions. The
// pages are readable without this file; it only calls the JSON API.
"use strict";
(function () {
  document.documentElement.classList.add("js");
  const $ = (id) => document.getElementById(id);
  const actions = document.querySelector(".actions");
  const msg = $("action-msg");

  function say(text, isError) {
    if (!msg) return;
    msg.textContent = text;
    msg.className = isError ? "error" : "";
  }

  async function post(path, body) {
    const res = await fetch(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body || {}),
      credentials: "same-origin",
    });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) {
      const e = data.error || {};
      throw new Error((e.code || res.status) + ": " + (e.message || res.statusText));
    }
    return data;
  }

  function setStatus(status) {
    const el = $("status");
    if (el) el.innerHTML = "";
    const badge = document.createElement("span");
    badge.className = "badge status-" + status;
    badge.textContent = status.replace(/_/g, " ");
    if (el) el.appendChild(badge);
  }

  const api = actions ? "/api/workflows/" + encodeURIComponent(actions.dataset.workflow) : "";
  const dialog = $("pause-dialog");

  const pauseBtn = $("pause-btn");
  if (pauseBtn && dialog) {
    pauseBtn.addEventListener("click", () => { $("pause-reason").value = ""; dialog.showModal(); });
    $("pause-cancel").addEventListener("click", () => dialog.close());
    $("pause-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      dialog.close();
      pauseBtn.disabled = true;
      say("pausing…");
      try {
        const r = await post(api + "/pause", { reason: $("pause-reason").value });
        setStatus(r.status);
        say("paused at snapshot " + (r.snapshot_id || "—"));
        setTimeout(() => location.reload(), 600);
      } catch (e) {
        say(e.message, true);
        pauseBtn.disabled = false;
      }
    });
  }

  const resumeBtn = $("resume-btn");
  if (resumeBtn) {
    resumeBtn.addEventListener("click", async () => {
      resumeBtn.disabled = true;
      say("resuming…");
      try {
        const r = await post(api + "/resume", {});
        setStatus(r.status);
        say("resumed from snapshot " + r.snapshot_id + (r.warnings ? " · " + r.warnings.join("; ") : ""));
        setTimeout(() => location.reload(), 600);
      } catch (e) {
        say(e.message, true);
        resumeBtn.disabled = false;
      }
    });
  }

  const copyBtn = $("copy-btn");
  if (copyBtn) {
    copyBtn.addEventListener("click", async () => {
      const text = $(copyBtn.dataset.target).textContent;
      try {
        await navigator.clipboard.writeText(text);
        copyBtn.textContent = "Copied";
      } catch (e) {
        const range = document.createRange();
        range.selectNodeContents($(copyBtn.dataset.target));
        const sel = window.getSelection();
        sel.removeAllRanges();
        sel.addRange(range);
        copyBtn.textContent = "Selected: press Ctrl+C";
      }
      setTimeout(() => { copyBtn.textContent = "Copy"; }, 2000);
    });
  }
})();
