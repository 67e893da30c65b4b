package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff/transcript"
)

func (a *app) newFormatsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "formats",
		Short: "List the transcript formats handoff reads: the agent, where it keeps sessions, and the --format aliases",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			formats := transcript.Formats()
			if asJSON {
				return writeJSON(a.stdout, formats)
			}
			tb := a.newTable("FORMAT", "AGENT", "DESCRIPTION", "WHERE", "ALIASES").keep(0)
			for _, f := range formats {
				where := f.Example
				if len(f.Locations) > 0 {
					where = strings.Join(f.Locations, " ")
				}
				tb.row(string(f.Name), orDash(f.Agent), f.Description, where, strings.Join(f.Aliases, ","))
			}
			return tb.flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
