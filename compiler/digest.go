package compiler

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/handoff-cli/handoff/internal/lazyre"
)

// digestMinItems is how many items (paragraphs, list items, headings) a
// message needs before a digest says more than its opening does.
const digestMinItems = 4

// itemStartRe marks a line that begins an item of its own: a list item, a
// numbered step, a heading, a bracketed tag ("[HIGH] …") or a bold label.
var itemStartRe = lazyre.New(`^\s*(?:[-*•+]\s|\d{1,3}[.)]\s|#{1,6}\s|\[[^\]\n]{1,30}\]\s|\*\*[^*\n]+\*\*)`)

// digest renders a long, itemized message as the head of each item, each
// clipped to perItem runes at a sentence or word boundary, until total
// runes: a report of eleven findings then names all eleven where its
// opening would show two. Code blocks are skipped (their fence line says
// one was there). It returns "" when the message has too few items for a
// digest to help.
func digest(text string, perItem, total int) string {
	items := messageItems(text)
	if len(items) < digestMinItems {
		return ""
	}
	var b strings.Builder
	used := 0
	for i, it := range items {
		it = clipText(it, perItem)
		n := utf8.RuneCountInString(it)
		if used+n > total && i > 0 {
			// The count tells the reader how much is not shown: a bare
			// "…" after seven findings hid that there were eleven.
			fmt.Fprintf(&b, "… (+%d more)", len(items)-i)
			break
		}
		b.WriteString(it)
		b.WriteByte('\n')
		used += n + 1
	}
	return strings.TrimRight(b.String(), "\n")
}

// messageItems returns the first line of each item of a message: each
// paragraph, list item, numbered step, heading, bracketed tag or bold
// label. Code blocks are skipped.
func messageItems(text string) []string {
	var items []string
	inCode, blank := false, true
	for _, line := range strings.Split(strings.TrimSpace(text), "\n") {
		t := strings.TrimSpace(line)
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			inCode = !inCode
			blank = false
			continue
		}
		if inCode {
			continue
		}
		if t == "" {
			blank = true
			continue
		}
		if blank || itemStartRe.MatchString(line) {
			items = append(items, strings.TrimRight(line, " \t\r"))
		}
		blank = false
	}
	return items
}
