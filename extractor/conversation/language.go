package conversation

import (
	"strings"
	"unicode"

	"github.com/abadojack/whatlanggo"
	"github.com/handoff-cli/handoff"
	"github.com/handoff-cli/handoff/extractor/facts"
	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// languageWindow is how many of the person's newest prose messages decide
// their language: people switch, and the successor should answer in the
// language the session ended in.
const languageWindow = 10

// personLanguage returns the language the person writes in when it is not
// English ("French", "Russian"), else "". A successor that answers a
// French speaker in English has lost something the transcript states on
// every line, yet no single message says. The newest prose messages of
// three or more words are read together (whatlanggo's trigram guess is
// poor on one short message, and confuses the Slavic languages on short
// Cyrillic text), and the answer must hold for most of them one by one:
// a majority of them must not read as English.
func personLanguage(reqs []handoff.Request) string {
	var texts []string
	notEnglish := 0
	for i := len(reqs) - 1; i >= 0 && len(texts) < languageWindow; i-- {
		if shellPromptRe.MatchString(reqs[i].Text) {
			continue // a pasted terminal log is the machine's language
		}
		text := proseOnly(reqs[i].Text)
		if prose.WordCount(text) < 3 {
			continue
		}
		texts = append(texts, text)
		if !readsEnglish(text) && whatlanggo.Detect(text).Lang != whatlanggo.Eng {
			notEnglish++
		}
	}
	if len(texts) == 0 || 2*notEnglish <= len(texts) {
		return ""
	}
	if lang := whatlanggo.Detect(strings.Join(texts, "\n")).Lang; lang != whatlanggo.Eng {
		return lang.String()
	}
	return ""
}

// shellPromptRe is a shell prompt line ("me@host:~/repo$ npm test",
// "$ make"): the message pastes a terminal session.
var shellPromptRe = prose.LazyRE(rulebook.Pattern("conversation.shell-prompt"))

// proseOnly drops code and lines that look like paths, commands or logs,
// which would vote English (or anything) whatever the person speaks.
func proseOnly(text string) string {
	var keep []string
	for _, line := range strings.Split(facts.StripCode(text), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "/") || strings.HasPrefix(line, ".") || strings.HasPrefix(line, "$") || strings.HasPrefix(line, ">") {
			continue
		}
		keep = append(keep, line)
	}
	return strings.Join(keep, " ")
}

// englishWords are English function words: a trigram guess on a short
// message ("Say hello and list files.") can name Danish, but a message in
// which one word in seven is one of these is English.
var englishWords = rulebook.WordSet("conversation.english-words")

// readsEnglish reports a text in which at least one word in seven is an
// English function word.
func readsEnglish(text string) bool {
	words, hits := 0, 0
	for _, f := range strings.Fields(strings.ToLower(text)) {
		f = strings.TrimFunc(f, func(r rune) bool { return unicode.IsPunct(r) && r != '\'' })
		if f == "" {
			continue
		}
		words++
		if englishWords[f] {
			hits++
		}
	}
	return words > 0 && 7*hits >= words
}
