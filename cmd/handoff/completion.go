package main

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/store"
	"github.com/handoff-cli/handoff/transcript"
)

// Shell completion (handoff completion bash|zsh|fish|powershell) knows
// what the commands take: snapshot and workflow ids from the database
// (opened read-only; nothing when there is none), transcript formats and
// workflow statuses.

// refKinds says which stored ids a reference completes to.
type refKinds struct{ snapshots, workflows bool }

// addCompletions wires the completions into root's commands. It runs once
// the commands exist, so the command constructors stay about flags.
func (a *app) addCompletions(root *cobra.Command) {
	snapOrWF := a.completeRefs(refKinds{snapshots: true, workflows: true})
	workflows := a.completeRefs(refKinds{workflows: true})
	snapshots := a.completeRefs(refKinds{snapshots: true})
	for _, cmd := range root.Commands() {
		switch cmd.Name() {
		case "show", "fork":
			cmd.ValidArgsFunction = onlyFirst(snapOrWF, 1)
		case "diff":
			cmd.ValidArgsFunction = onlyFirst(snapOrWF, 2)
		}
		fs := cmd.Flags()
		if fs.Lookup("workflow") != nil && cmd.Name() != "fork" {
			_ = cmd.RegisterFlagCompletionFunc("workflow", workflows)
		}
		if fs.Lookup("snapshot") != nil {
			_ = cmd.RegisterFlagCompletionFunc("snapshot", snapshots)
		}
		if fs.Lookup("set") != nil && cmd.Name() == "status" {
			_ = cmd.RegisterFlagCompletionFunc("set", fixed(statusNames()))
		}
		if fs.Lookup("format") != nil {
			switch cmd.Name() {
			case "resume":
				_ = cmd.RegisterFlagCompletionFunc("format", fixed([]string{resumePrompt, resumeMarkdown, resumeJSON}))
			case "show":
				_ = cmd.RegisterFlagCompletionFunc("format", fixed([]string{resumePrompt, resumeMarkdown}))
			default:
				_ = cmd.RegisterFlagCompletionFunc("format", fixed(formatNames()))
			}
		}
	}
	if root.Flags().Lookup("format") != nil {
		_ = root.RegisterFlagCompletionFunc("format", fixed(formatNames()))
	}
	if root.Flags().Lookup("workflow") != nil {
		_ = root.RegisterFlagCompletionFunc("workflow", workflows)
	}
}

// formatNames are the transcript formats, described.
func formatNames() []string {
	var out []string
	for _, f := range transcript.Formats() {
		out = append(out, cobra.CompletionWithDesc(string(f.Name), f.Description))
	}
	return out
}

// statusNames are the workflow statuses.
func statusNames() []string {
	var out []string
	for _, s := range handoff.WorkflowStatuses() {
		out = append(out, string(s))
	}
	return out
}

// fixed completes from a fixed list, never with file names.
func fixed(choices []string) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		return choices, cobra.ShellCompDirectiveNoFileComp
	}
}

// onlyFirst completes the first n positional arguments with f, and no
// more.
func onlyFirst(f cobra.CompletionFunc, n int) cobra.CompletionFunc {
	return func(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) >= n {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return f(cmd, args, toComplete)
	}
}

// completeRefs completes stored ids starting with what is typed (or, for
// a snapshot, with it after "snap_"), newest first, each described by its
// workflow's name or its goal.
func (a *app) completeRefs(kinds refKinds) cobra.CompletionFunc {
	return func(cmd *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		ctx := cmd.Context()
		if ctx == nil {
			ctx = context.Background()
		}
		out, _ := a.storedRefs(ctx, kinds, toComplete)
		return out, cobra.ShellCompDirectiveNoFileComp
	}
}

// storedRefs lists the ids completeRefs offers.
func (a *app) storedRefs(ctx context.Context, kinds refKinds, prefix string) ([]string, error) {
	path, err := a.dbTarget()
	if err != nil {
		return nil, err
	}
	s, err := a.openDoctorStore(ctx, path) // read-only: completing creates nothing
	if err != nil {
		return nil, err
	}
	defer s.Close()
	match := func(id, bare string) bool {
		return strings.HasPrefix(id, prefix) || (bare != "" && strings.HasPrefix(strings.TrimPrefix(id, bare), prefix))
	}
	var out []string
	if kinds.workflows {
		wfs, _, err := s.ListWorkflows(ctx)
		if err != nil {
			return nil, err
		}
		for _, w := range wfs {
			if match(w.ID, "wf_") {
				out = append(out, cobra.CompletionWithDesc(w.ID, w.Name+" ("+string(w.Status)+")"))
			}
		}
	}
	if kinds.snapshots {
		sums, _, err := s.ListSnapshots(ctx, store.ListFilter{Limit: 200})
		if err != nil {
			return nil, err
		}
		for _, sn := range sums {
			if match(sn.ID, "snap_") {
				out = append(out, cobra.CompletionWithDesc(sn.ID, shorten(sn.Goal, 60)))
			}
		}
	}
	return out, nil
}
