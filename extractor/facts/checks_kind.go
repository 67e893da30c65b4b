package facts

import (
	"path"
	"slices"
	"strings"

	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// checkRedirectRe is a shell redirection with its target ("> log 2>&1").
var checkRedirectRe = prose.LazyRE(rulebook.Pattern("facts.check-redirect"))

// checkFields are a segment's words without redirections, environment
// assignments and wrappers (sudo, timeout 60, npx).
func checkFields(seg string) []string {
	f := strings.Fields(checkRedirectRe.ReplaceAllString(seg, " "))
	for len(f) > 0 && (strings.Contains(f[0], "=") || isWrapper(f[0])) {
		if f[0] == "timeout" && len(f) > 1 {
			f = f[1:]
		}
		f = f[1:]
	}
	return f
}

// scriptCheckRe is a package-script name that builds or verifies
// ("build", "build:prod", "typecheck", "lint:fix" is not: it changes code).
var scriptCheckRe = prose.LazyRE(rulebook.Pattern("facts.script-check"))

// checkCall is a command segment split for the check rules: the program's
// base name, its arguments and the first of them that is not a flag.
type checkCall struct {
	seg, prog, sub string
	args           []string
}

// has reports whether any of flags is among the arguments, alone or with
// "=value".
func (c checkCall) has(flags ...string) bool {
	for _, a := range c.args {
		for _, fl := range flags {
			if a == fl || strings.HasPrefix(a, fl+"=") {
				return true
			}
		}
	}
	return false
}

// checkRule names what a call of its programs verifies. decided false
// leaves the call to the generic --dry-run test; decided true with kind ""
// says the call is surely not a check.
type checkRule func(c checkCall) (kind string, decided bool)

// checkProgs is one row of the check table: programs sharing a rule.
type checkProgs struct {
	progs []string
	rule  checkRule
}

// always is the rule of programs that are a check of one kind whatever
// their arguments ("" for programs that never are).
func always(kind string) checkRule {
	return func(checkCall) (string, bool) { return kind, true }
}

// when is the rule of programs that are a check of kind only when ok
// holds, undecided otherwise.
func when(kind string, ok func(c checkCall) bool) checkRule {
	return func(c checkCall) (string, bool) { return kind, ok(c) }
}

// subIs is true when the call's subcommand is one of subs.
func subIs(subs ...string) func(c checkCall) bool {
	return func(c checkCall) bool { return slices.Contains(subs, c.sub) }
}

// hasFlag is true when the call has one of flags.
func hasFlag(flags ...string) func(c checkCall) bool {
	return func(c checkCall) bool { return c.has(flags...) }
}

// argIs is true when any argument satisfies ok (build tools whose goals
// may follow options: "mvn -q package").
func argIs(ok func(a string) bool) func(c checkCall) bool {
	return func(c checkCall) bool { return slices.ContainsFunc(c.args, ok) }
}

// checkTable is every program the check rules know, by rule. A program
// not in it is a check only with --dry-run.
var checkTable = []checkProgs{
	{[]string{"make", "gmake", "ninja", "mingw32-make"}, makeCheck},
	{[]string{"cmake"}, when("build", hasFlag("--build"))},
	{[]string{"cargo"}, cargoCheck},
	{[]string{"go"}, goCheck},
	{[]string{"tsc", "vue-tsc", "svelte-check"}, always("type check")},
	{[]string{"npm", "pnpm", "yarn", "bun"}, packageScriptCheck},
	{[]string{"next", "vite", "nuxt", "astro"}, when("build", subIs("build"))},
	{[]string{"webpack", "rollup", "esbuild", "parcel"}, bundlerCheck},
	{[]string{"eslint", "ruff", "flake8", "pylint", "mypy", "pyright", "golangci-lint", "staticcheck", "shellcheck",
		"swiftlint", "rubocop", "hadolint", "biome", "stylelint", "markdownlint", "actionlint", "yamllint"}, linterCheck},
	{[]string{"black", "prettier", "gofmt", "rustfmt"}, when("lint", hasFlag("--check", "-l", "--list-different"))},
	{[]string{"goreleaser"}, goreleaserCheck},
	{[]string{"pdflatex", "xelatex", "lualatex", "latex", "latexmk", "tectonic", "bibtex", "biber", "typst"}, documentCheck},
	{[]string{"bash", "sh", "zsh", "dash"}, when("syntax check", hasFlag("-n"))},
	{[]string{"node"}, when("syntax check", hasFlag("--check", "-c"))},
	{[]string{"python", "python3"}, pythonCheck},
	{[]string{"docker", "podman", "buildah"}, containerCheck},
	{[]string{"swift"}, when("build", subIs("build"))},
	{[]string{"xcodebuild"}, always("build")}, // its test action is a test command, seen first
	{[]string{"mvn", "mvnw", "./mvnw"}, when("build", argIs(func(a string) bool {
		return a == "compile" || a == "package" || a == "install"
	}))},
	{[]string{"gradle", "gradlew", "./gradlew"}, when("build", argIs(func(a string) bool {
		return a == "build" || a == "assemble" || strings.HasPrefix(a, "compile")
	}))},
	{[]string{"dotnet"}, when("build", subIs("build", "publish"))},
	{[]string{"gcc", "g++", "cc", "c++", "clang", "clang++", "nvcc", "rustc", "javac", "gfortran"}, compilerCheck},
	{[]string{"terraform", "tofu"}, when("dry run", subIs("validate", "plan"))},
	{[]string{"helm"}, when("lint", subIs("lint", "template"))},
	{[]string{"git", "rsync", "rm", "cp", "mv", "apt", "apt-get", "brew"}, always("")},
}

// checkKind names what a command segment verifies, "" when it is not a
// check.
func checkKind(seg string) string {
	f := checkFields(seg)
	if len(f) == 0 {
		return ""
	}
	c := checkCall{seg: seg, prog: path.Base(f[0]), args: f[1:]}
	if i := slices.IndexFunc(c.args, func(a string) bool { return !strings.HasPrefix(a, "-") }); i >= 0 {
		c.sub = c.args[i]
	}
	for _, row := range checkTable {
		if !slices.Contains(row.progs, c.prog) {
			continue
		}
		if kind, decided := row.rule(c); decided {
			return kind
		}
		break
	}
	if c.has("--dry-run") {
		return "dry run"
	}
	return ""
}

// makeCheck: make builds unless its target only cleans, installs, formats
// or runs.
func makeCheck(c checkCall) (string, bool) {
	switch c.sub {
	case "clean", "distclean", "help", "install", "uninstall", "format", "fmt", "run", "dev", "serve":
		return "", true
	}
	return "build", true
}

// cargoCheck: cargo build, check, clippy and fmt --check.
func cargoCheck(c checkCall) (string, bool) {
	switch c.sub {
	case "build", "b":
		return "build", true
	case "check", "c":
		return "type check", true
	case "clippy":
		return "lint", true
	case "fmt":
		return "lint", c.has("--check")
	}
	return "", false
}

// goCheck: go build and go vet (go test is a test command).
func goCheck(c checkCall) (string, bool) {
	switch c.sub {
	case "build":
		return "build", true
	case "vet":
		return "lint", true
	}
	return "", false
}

// packageScriptCheck: a package manager running a script whose name
// builds or verifies ("npm run build", "pnpm --filter web typecheck").
func packageScriptCheck(c checkCall) (string, bool) {
	script := packageScript(c.args)
	if !scriptCheckRe.MatchString(script) {
		return "", false
	}
	if strings.HasPrefix(script, "lint") {
		return "lint", true
	}
	if strings.Contains(script, "type") || strings.Contains(script, "tsc") || strings.HasPrefix(script, "check") {
		return "type check", true
	}
	return "build", true
}

// packageScript is the first argument of a package manager's command line
// that is neither a flag, "run", nor the value of a workspace option.
func packageScript(args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--filter" || a == "-F" || a == "-C" || a == "--prefix" || a == "-w" || a == "--workspace":
			i++
		case strings.HasPrefix(a, "-") || a == "run" || a == "run-script":
		default:
			return a
		}
	}
	return ""
}

// bundlerCheck: webpack, rollup and esbuild build whatever their
// arguments; parcel only with "build".
func bundlerCheck(c checkCall) (string, bool) {
	return "build", c.prog != "parcel" || c.sub == "build"
}

// linterCheck: a linter lints, a type checker type-checks; ruff format
// without --check rewrites code.
func linterCheck(c checkCall) (string, bool) {
	if c.prog == "ruff" && c.sub == "format" && !c.has("--check") {
		return "", true
	}
	if c.prog == "mypy" || c.prog == "pyright" {
		return "type check", true
	}
	return "lint", true
}

// goreleaserCheck: goreleaser check, a snapshot or dry run, and build.
func goreleaserCheck(c checkCall) (string, bool) {
	switch {
	case c.sub == "check":
		return "config check", true
	case c.has("--snapshot", "--dry-run", "--skip-publish", "--skip"):
		return "dry run", true
	case c.sub == "build":
		return "build", true
	}
	return "", false
}

// documentCheck: a TeX engine builds the document; typst only with
// "compile".
func documentCheck(c checkCall) (string, bool) {
	if c.prog == "typst" && c.sub != "compile" {
		return "", true
	}
	return "build", true
}

// pythonCheck: python -m py_compile, compileall or mypy.
func pythonCheck(c checkCall) (string, bool) {
	for i, a := range c.args {
		if a != "-m" || i+1 >= len(c.args) {
			continue
		}
		switch c.args[i+1] {
		case "mypy":
			return "type check", true
		case "py_compile", "compileall":
			return "syntax check", true
		}
	}
	return "", false
}

// containerCheck: an image build, directly or through compose or buildx.
func containerCheck(c checkCall) (string, bool) {
	build := c.sub == "build" || c.sub == "bud" ||
		((c.sub == "compose" || c.sub == "buildx") && strings.Contains(c.seg, " build"))
	return "build", build
}

// compilerCheck: a compiler compiling (-c, -o, -fsyntax-only); rustc and
// javac always do.
func compilerCheck(c checkCall) (string, bool) {
	return "build", c.has("-c", "-o", "-fsyntax-only") || c.prog == "rustc" || c.prog == "javac"
}
