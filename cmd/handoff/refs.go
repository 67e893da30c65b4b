package main

import (
	"context"

	"github.com/spf13/pflag"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/session"
)

// References on the command line go through session's resolver (see
// session/resolve.go): a whole id or a unique prefix, with or without
// "snap_"/"wf_"; an ambiguous one exits 2 listing the candidates, an
// unknown one 3.

// workflowFilter resolves a --workflow that narrows a listing (list,
// decisions, errors, status --events) to the workflow's whole id; "" stays
// "" (every workflow).
func workflowFilter(ctx context.Context, s session.Store, ref string) (string, error) {
	if ref == "" {
		return "", nil
	}
	wf, err := session.Resolve(ctx, s, session.Ref{Workflow: ref})
	if err != nil {
		return "", err
	}
	return wf.ID, nil
}

// targetFlags are --workflow and --new-workflow of the commands that file
// a snapshot (compile, pause, watch): an existing workflow by reference,
// or, only when asked for by name, a new one.
type targetFlags struct {
	workflow    string
	newWorkflow string
}

func (f *targetFlags) add(fs *pflag.FlagSet, def string) {
	fs.StringVar(&f.workflow, "workflow", "", "existing workflow `id` (or unique prefix) to file the snapshot under (default: "+def+")")
	fs.StringVar(&f.newWorkflow, "new-workflow", "", "file the snapshot under a new workflow with this `id`")
}

// named returns the workflow named by the flags, unresolved, and whether
// it is to be created.
func (f *targetFlags) named() (string, bool, error) {
	if f.workflow != "" && f.newWorkflow != "" {
		return "", false, handoff.Errorf(handoff.EINVALID, "--workflow and --new-workflow do not go together")
	}
	if f.newWorkflow != "" {
		return f.newWorkflow, true, nil
	}
	return f.workflow, false, nil
}

// resolve returns the id of the workflow the flags name ("" when they name
// none: the command's default applies): --workflow must match an
// existing workflow (exit 3 otherwise, never a silent new one);
// --new-workflow must not.
func (f *targetFlags) resolve(ctx context.Context, s session.Store) (string, error) {
	ref, create, err := f.named()
	if err != nil || ref == "" {
		return "", err
	}
	return session.TargetWorkflow(ctx, s, ref, create)
}
