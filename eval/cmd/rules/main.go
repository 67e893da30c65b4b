// Command rules prints, one a line, the id of every rule of the extractor's
// rulebook that can be switched off (rulebook.Switchable), for eval/ablate.
package main

import (
	"fmt"

	"github.com/handoff-cli/handoff/extractor/rulebook"
)

func main() {
	for _, r := range rulebook.Switchable() {
		fmt.Println(r.ID)
	}
}
