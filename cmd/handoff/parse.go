package main

import (
	"context"
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/redact"
	"github.com/handoff-cli/handoff/transcript"
)

// parseOptions are the flags of `handoff parse`, which prints the
// normalised transcript a parser produced: what an integration sees
// before extraction, for debugging a format.
type parseOptions struct {
	app *app

	format  string
	strict  bool
	session string
	json    bool
}

func (a *app) newParseCmd() *cobra.Command {
	o := &parseOptions{app: a}
	cmd := &cobra.Command{
		Use:   "parse [FILE]",
		Short: "Print the normalised messages a transcript parses to (debugging)",
		Long: `parse reads a transcript (a file, or standard input) as compile does and
prints what the parser made of it: the session info, every normalised
message (role, text, tool calls and results, usage, flags) and the
warnings for skipped records. Secrets are redacted first.`,
		Example: `  handoff parse ~/.codex/sessions/2025/09/01/rollout-x.jsonl --json | jq '.messages[] | .role'
  handoff parse trajectory.traj --format swe-agent`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(cmd.Context(), args)
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.format, "format", "", "transcript format (default: detect; see 'handoff formats')")
	f.BoolVar(&o.strict, "strict", false, "fail on a malformed record instead of skipping it with a warning")
	f.StringVar(&o.session, "session", "", "session `id` to read from a store that holds many (default: the newest)")
	f.BoolVar(&o.json, "json", false, "print the transcript as JSON (session, messages, warnings)")
	return cmd
}

func (o *parseOptions) run(ctx context.Context, args []string) error {
	a := o.app
	format, err := transcript.ParseFormat(o.format)
	if err != nil {
		return err
	}
	t, err := a.readTranscript(ctx, args, transcript.Options{Format: format, Strict: o.strict, Session: o.session, Logger: a.log()})
	if err != nil {
		return err
	}
	redacted := redact.Transcript(t)
	a.status("parsed %d messages as %s, %d warnings, %d secrets redacted", len(t.Messages), t.Session.Format, len(t.Warnings), redacted)
	if o.json {
		return writeJSON(a.stdout, t)
	}
	return writeTranscriptTable(a, t)
}

// writeTranscriptTable prints the session line, one row per message and
// the warnings.
func writeTranscriptTable(a *app, t *handoff.Transcript) error {
	s := t.Session
	fmt.Fprintf(a.stdout, "format %s  session %s  agent %s  model %s  cwd %s\n", s.Format, orDash(s.ID), orDash(s.Agent), orDash(s.Model), orDash(s.CWD))
	tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "#\tLINE\tROLE\tFLAGS\tTEXT\tTOOLS")
	for _, m := range t.Messages {
		var tools []string
		for _, c := range m.ToolCalls {
			tools = append(tools, "call "+c.Name)
		}
		for _, r := range m.ToolResults {
			st := "ok"
			if r.Failed() {
				st = "failed"
			}
			tools = append(tools, fmt.Sprintf("result %s %s", orDash(r.Name), st))
		}
		fmt.Fprintf(tw, "%d\t%d\t%s\t%s\t%s\t%s\n", m.Index, m.Line, m.Role, messageFlags(m), preview(m.Text, 60), strings.Join(tools, ", "))
	}
	if err := tw.Flush(); err != nil {
		return fmt.Errorf("write table: %w", err)
	}
	for _, w := range t.Warnings {
		fmt.Fprintf(a.stdout, "warning: line %d: %s\n", w.Line, w.Reason)
	}
	return nil
}

// messageFlags abbreviates what is marked on a message.
func messageFlags(m handoff.Message) string {
	var f []string
	if m.Sidechain {
		f = append(f, "sidechain")
	}
	if m.CompactSummary {
		f = append(f, "compact-summary")
	}
	if m.Meta {
		f = append(f, "meta")
	}
	if m.Thinking != "" {
		f = append(f, "thinking")
	}
	if m.Usage != nil {
		f = append(f, fmt.Sprintf("ctx=%d", m.Usage.ContextTokens()))
	}
	if len(f) == 0 {
		return "-"
	}
	return strings.Join(f, ",")
}

// preview is the start of s on one line.
func preview(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	if s == "" {
		return "-"
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
