package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/handoff-cli/handoff/transcript"
)

func (a *app) newFormatsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "formats",
		Short: "List the transcript formats handoff reads, with an example path and the --format aliases",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			formats := transcript.Formats()
			if asJSON {
				return writeJSON(a.stdout, formats)
			}
			tw := tabwriter.NewWriter(a.stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(tw, "FORMAT\tDESCRIPTION\tEXAMPLE\tALIASES")
			for _, f := range formats {
				fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", f.Name, f.Description, f.Example, strings.Join(f.Aliases, ","))
			}
			return tw.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON")
	return cmd
}
