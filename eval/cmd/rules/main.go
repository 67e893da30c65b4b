// Command rules prints the id of every rule in the extractor's rulebook, one
// a line, for eval/ablate.
package main

import (
	"fmt"

	"github.com/handoff-cli/handoff/extractor/rulebook"
)

func main() {
	for _, r := range rulebook.Catalogue() {
		fmt.Println(r.ID)
	}
}
