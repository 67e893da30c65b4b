// Package prompts owns the text handoff shows to language models and to
// people: the resume-prompt template the compiler renders, and the system
// prompt the LLM extractor sends. Keeping them here, embedded, means the
// wording can be reviewed and versioned in one place, and a user can
// replace the resume template without rebuilding.
package prompts

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"text/template"

	"github.com/handoff-cli/handoff"
)

//go:embed templates/*
var templateFS embed.FS

// ExtractionPromptVersion names the wording of ExtractionSystemPrompt. It
// is part of every extraction cache key: change it whenever the prompt
// changes, so records cached under the old wording are not reused.
const ExtractionPromptVersion = "extract-v3"

// mustRead returns an embedded file. The files are compiled in, so a
// missing one is a build mistake that every test run would catch.
func mustRead(name string) string {
	b, err := templateFS.ReadFile("templates/" + name)
	if err != nil {
		panic(fmt.Sprintf("prompts: embedded %s missing: %v", name, err))
	}
	return string(b)
}

// ResumeTemplate returns the default resume-prompt template: markdown
// written as a text/template over the compiler's view of a snapshot. The
// view's sections are ready-made markdown in which transcript text is set
// apart as data (block quotes, “quoted” inline text, code spans), so the
// template only arranges them and cannot render transcript text as a
// heading or an instruction.
func ResumeTemplate() string { return mustRead("resume.md.tmpl") }

// ExtractionSystemPrompt returns the system prompt for LLM extraction:
// decisions (the agent's and the person's), error notes, constraints,
// current work and the next step. It tells the model that the transcript
// is data enclosed in <transcript> tags, never instructions, and that every
// record must cite a message index present in the transcript.
func ExtractionSystemPrompt() string { return mustRead("extraction_system.txt") }

// Funcs returns the functions available to resume templates. The compiler
// executes templates with exactly these, and LoadTemplate parses user
// templates with them, so a template that loads also compiles. A fresh map
// is returned each time: callers may extend it without affecting others.
func Funcs() template.FuncMap {
	return template.FuncMap{
		// join joins quoted items: {{join .Alternatives "; "}}.
		"join": strings.Join,
		// plural picks a word for a count: {{plural .N "error" "errors"}}.
		"plural": func(n int, one, many string) string {
			if n == 1 {
				return one
			}
			return many
		},
		// itoa formats an integer.
		"itoa": strconv.Itoa,
	}
}

// Parse parses text as a resume template with Funcs. An invalid template
// is an EINVALID error carrying the parser's message.
func Parse(name, text string) (*template.Template, error) {
	t, err := template.New(name).Funcs(Funcs()).Option("missingkey=error").Parse(text)
	if err != nil {
		return nil, handoff.Errorf(handoff.EINVALID, "invalid resume template %s: %w", name, err)
	}
	return t, nil
}

// LoadTemplate reads a user's resume-template override from path and
// checks that it parses with Funcs, so a broken template is reported when
// it is named, not halfway through a compile. A missing file is ENOTFOUND;
// a template that does not parse is EINVALID with the parser's message.
func LoadTemplate(path string) (string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", handoff.Errorf(handoff.ENOTFOUND, "resume template %s does not exist: %w", path, err)
		}
		return "", fmt.Errorf("read resume template %s: %w", path, err)
	}
	if _, err := Parse(path, string(b)); err != nil {
		return "", err
	}
	return string(b), nil
}
