package facts

import (
	"encoding/json"
)

// The facts, the sub-agent runs, the git state, the in-flight work and
// the recent turns each classify every call, and the error log, the
// checks and the probe batches each derive the same things from a shell
// command (NormalizeCommand, IsTestCommand, programFields): regexps over
// the command, several times per call, were a fifth of a large compile.
// Within one Build a call is classified once and a command's derivations
// are made once.

// classifyKey identifies a call's classification within a Build: its id
// and name, and the open file it was read against (SWE-agent's edit and
// insert target it).
type classifyKey struct{ id, name, open string }

// classifiedCall is a call as classify read it: the input it read (ids
// repeat across some transcripts' calls, so a hit must also have the same
// input), the result, and the open file after it.
type classifiedCall struct {
	input json.RawMessage
	info  CallInfo
	open  string
}

// commandMemo holds what is derived from one command, each computed on
// first need.
type commandMemo struct {
	command string
	test    memoBool
	fields  *[]string
	prog    *string
	norm    *string
	args    *[]string
	pkgs    *[]string
	chain   *[]string // pureChainKeys; nil in it for no pure chain
}

// memoBool is a lazily computed bool: unknown until set.
type memoBool int8

const (
	memoUnknown memoBool = iota
	memoFalse
	memoTrue
)

func memoOf(b bool) memoBool {
	if b {
		return memoTrue
	}
	return memoFalse
}

// commandMemo returns command's memo, shared by every call of the Build
// that ran it.
func (h *Headlines) commandMemo(command string) *commandMemo {
	if m, ok := h.commands[command]; ok {
		return m
	}
	m := &commandMemo{command: command}
	h.commands[command] = m
	return m
}

// memoFor is c's memo, made on first need for a call classified outside a
// Build.
func (c *CallInfo) memoFor() *commandMemo {
	if c.memo == nil || c.memo.command != c.Command {
		c.memo = &commandMemo{command: c.Command}
	}
	return c.memo
}

// testCommand is IsTestCommand(c.Command).
func (c *CallInfo) testCommand() bool {
	m := c.memoFor()
	if m.test == memoUnknown {
		m.test = memoOf(IsTestCommand(m.command))
	}
	return m.test == memoTrue
}

// programFields is programFields(c.Command); callers only read it.
func (c *CallInfo) programFields() []string {
	m := c.memoFor()
	if m.fields == nil {
		f := programFields(m.command)
		m.fields = &f
	}
	return *m.fields
}

// programKey is ProgramKey(c.Command).
func (c *CallInfo) programKey() string {
	m := c.memoFor()
	if m.prog == nil {
		k := fieldsKey(c.programFields())
		m.prog = &k
	}
	return *m.prog
}

// pureChainKeys is pureChainKeys(c.Command).
func (c *CallInfo) pureChainKeys() ([]string, bool) {
	m := c.memoFor()
	if m.chain == nil {
		k, pure := pureChainKeys(m.command)
		if !pure {
			k = nil
		} else if k == nil {
			k = []string{}
		}
		m.chain = &k
	}
	return *m.chain, *m.chain != nil
}

// normalized is NormalizeCommand(c.Command).
func (c *CallInfo) normalized() string {
	m := c.memoFor()
	if m.norm == nil {
		n := NormalizeCommand(m.command)
		m.norm = &n
	}
	return *m.norm
}

// principalArgs is principalArgs(c.Command); callers only read it.
func (c *CallInfo) principalArgs() []string {
	m := c.memoFor()
	if m.args == nil {
		a := principalArgs(m.command)
		m.args = &a
	}
	return *m.args
}

// installPackages is installPackages(c.Command); callers only read it.
func (c *CallInfo) installPackages() []string {
	m := c.memoFor()
	if m.pkgs == nil {
		p := installPackages(m.command)
		m.pkgs = &p
	}
	return *m.pkgs
}
