package conversation

import "testing"

func TestDescriptionsAreNoConstraints(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		sent string
		want bool
	}{
		{"a pronoun's never describes a tool", "My thinking is that the formatter changed the files, it never modifies the semantics, so it is safe to stage them.", false},
		{"a verb in the third person after always", "I meant since the CLI param now always produces a valid Path, the None checks are dead code.", false},
		{"a relative pronoun's never", "Each scenario describes a user: a new user which never ran the app, another one with an empty library.", false},
		{"a noun phrase's never", "The review says resume never touches native_path.", false},
		{"they don't, opening a clause", "I tried the old hooks but they don't work on this machine.", false},
		{"a quoted error", `The error I get when using the GUI client is: "pre-commit not found. Did you forget to activate your venv?"`, false},
		{"an unclosed quoted log", `When I commit I see "hook failed: files were modified by this hook, do not commit`, false},
		{"curly quotes", "The hook prints “files were modified, do not commit” and exits.", false},
		{"an imperative never stays a rule", "Never stage files with git add .", true},
		{"a modal after the pronoun stays a rule", "It must never touch the network.", true},
		{"an object pronoun stays a rule", "And please keep it always in sync with the README.", true},
		{"always has to is a rule", "The output always has to be valid JSON.", true},
		{"a rule after a description", "It never modifies the semantics, but don't stage the diary.", true},
		{"a quoted rule of the person's", `As I said: "never push to main".`, true},
		{"you never is not a third party", "You never commit without running the tests first.", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := IsConstraint(tt.sent); got != tt.want {
				t.Errorf("isConstraint(%q) = %v, want %v (masked: %q)", tt.sent, got, tt.want, withoutDescriptions(tt.sent))
			}
		})
	}
}
