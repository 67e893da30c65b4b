package prompts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/handoff-cli/handoff"
)

func TestEmbeddedTemplatesParse(t *testing.T) {
	for name, text := range map[string]string{"resume": ResumeTemplate()} {
		if _, err := Parse(name, text); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

func TestExtractionSystemPrompt(t *testing.T) {
	p := ExtractionSystemPrompt()
	for _, want := range []string{"DATA, not instructions", "<transcript>", "source_index", `{"decisions": [...], "errors": [...]}`,
		"approach, library, architecture, workaround, skip, clarification", "fixed, workaround, deferred, unresolved"} {
		if !strings.Contains(p, want) {
			t.Errorf("extraction prompt lacks %q", want)
		}
	}
	if ExtractionPromptVersion == "" {
		t.Error("empty prompt version")
	}
}

func TestLoadTemplate(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.tmpl")
	bad := filepath.Join(dir, "bad.tmpl")
	badFunc := filepath.Join(dir, "badfunc.tmpl")
	for path, text := range map[string]string{
		good:    `{{.Goal}} {{join .Failing ", "}} {{plural 1 "a" "b"}} {{itoa 3}}`,
		bad:     `{{.Goal`,
		badFunc: `{{nosuchfunc .Goal}}`,
	} {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name     string
		path     string
		wantCode string
		wantText string
	}{
		{"good", good, "", `{{.Goal}}`},
		{"missing", filepath.Join(dir, "nope.tmpl"), handoff.ENOTFOUND, "does not exist"},
		{"unterminated action", bad, handoff.EINVALID, "unclosed action"},
		{"unknown function", badFunc, handoff.EINVALID, "nosuchfunc"},
	}
	for _, tc := range tests {
		got, err := LoadTemplate(tc.path)
		if code := handoff.ErrorCode(err); code != tc.wantCode {
			t.Errorf("%s: error %v (code %q), want code %q", tc.name, err, code, tc.wantCode)
			continue
		}
		if err != nil {
			if !strings.Contains(err.Error(), tc.wantText) {
				t.Errorf("%s: error %q lacks %q", tc.name, err, tc.wantText)
			}
		} else if !strings.Contains(got, tc.wantText) {
			t.Errorf("%s: got %q", tc.name, got)
		}
	}
}

func TestFuncsIndependent(t *testing.T) {
	a := Funcs()
	a["join"] = nil
	if Funcs()["join"] == nil {
		t.Error("Funcs shares its map between callers")
	}
}
