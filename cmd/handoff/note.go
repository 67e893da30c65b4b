package main

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/session"
)

// noteOptions are the flags of `handoff note`.
type noteOptions struct {
	app      *app
	template bool
}

// newNoteCmd is `handoff note`: an agent hands over its own handoff note.
// The note travels in the transcript (the call's input), where the
// extractor finds it; the command checks its shape so the agent learns at
// once when a field is missing.
func (a *app) newNoteCmd() *cobra.Command {
	o := &noteOptions{app: a}
	cmd := &cobra.Command{
		Use:   "note [TEXT]",
		Short: "Check an agent's handoff note (read from TEXT or stdin) and echo it",
		Long: `note reads an agent's handoff note, in the shape the checkpoint hook asks
for (--template prints it), from TEXT or stdin, checks that it names at
least what is done or what comes next, and prints it back. The transcript
carries the call, so the next snapshot reads the note, gives it first
place in the resume prompt as the agent's words, and says where the
transcript disagrees with it.`,
		Example: `  handoff note --template
  handoff note <<'EOF'
  ## Handoff note
  - Done: renamed the 14 workflow files to TitleCase
  - Next: mkdir -p ~/.claude/skills/ImageGenerator/workflows
  EOF`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return o.run(cmd.Context(), args)
		},
	}
	cmd.Flags().BoolVar(&o.template, "template", false, "print the note's shape and exit")
	return cmd
}

func (o *noteOptions) run(_ context.Context, args []string) error {
	a := o.app
	if o.template {
		_, err := fmt.Fprintln(a.stdout, handoff.NoteTemplate())
		return err
	}
	text := ""
	if len(args) == 1 {
		text = args[0]
	} else {
		b, err := io.ReadAll(io.LimitReader(a.stdin, 1<<20))
		if err != nil {
			return fmt.Errorf("read the note: %w", err)
		}
		text = string(b)
	}
	note, err := session.CheckNote(text)
	if err != nil {
		return fmt.Errorf("%w; handoff note --template shows the shape", err)
	}
	_, err = io.WriteString(a.stdout, note)
	return err
}
