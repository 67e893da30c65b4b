package facts

import (
	"path"
	"slices"
	"strings"

	"github.com/handoff-cli/handoff/extractor/prose"
	"github.com/handoff-cli/handoff/extractor/rulebook"
)

// shellSegmentRe splits a shell command line into its simple commands.
var shellSegmentRe = prose.LazyRE(rulebook.Pattern("facts.shell-segment"))

// moveAndRemove applies a shell command's renames and removals of files
// the session edited: `mv a b` (also `git mv`) moves a's entry to b, and
// `rm` (also `git rm`) drops a removed file, so that the files list names
// what exists at the end, not a name the session did away with.
func (s *fileSet) moveAndRemove(cmd string) {
	if !strings.Contains(cmd, "mv ") && !strings.Contains(cmd, "rm ") {
		return
	}
	for _, seg := range shellSegmentRe.Split(strings.ReplaceAll(cmd, "\\\n", " "), -1) {
		f := strings.Fields(seg)
		if len(f) > 0 && f[0] == "git" {
			f = f[1:]
		}
		if len(f) < 2 {
			continue
		}
		var args []string
		for _, a := range f[1:] {
			if !strings.HasPrefix(a, "-") {
				args = append(args, strings.Trim(a, `"'`))
			}
		}
		switch f[0] {
		case "mv":
			if len(args) == 2 {
				s.rename(args[0], args[1])
			}
		case "rm":
			for _, a := range args {
				if p := s.tracked(a); p != "" {
					s.drop(p)
				}
			}
		}
	}
}

// tracked returns the edited file's path that arg names (the same path,
// or one ending in it: the session wrote by absolute path and renames by
// a relative or ~ path), "" when arg names none of them.
func (s *fileSet) tracked(arg string) string {
	a := strings.TrimPrefix(strings.TrimPrefix(arg, "~/"), "./")
	if a == "" || strings.ContainsAny(a, "*?$") {
		return ""
	}
	for _, p := range s.order {
		if p == arg || p == a || strings.HasSuffix(p, "/"+a) {
			return p
		}
	}
	return ""
}

// rename moves the entry of the edited file src names to dst, merged
// into dst's entry when the session edited dst too.
func (s *fileSet) rename(src, dst string) {
	from := s.tracked(src)
	if from == "" {
		return
	}
	to := dst
	if !strings.HasPrefix(dst, "/") {
		d := strings.TrimPrefix(strings.TrimPrefix(dst, "~/"), "./")
		a := strings.TrimPrefix(strings.TrimPrefix(src, "~/"), "./")
		to = strings.TrimSuffix(from, a) + d
	}
	if strings.HasSuffix(dst, "/") {
		to += path.Base(from)
	}
	if to == from {
		return
	}
	fc := s.byPat[from]
	s.drop(from)
	if old := s.tracked(to); old == to {
		o := s.byPat[to]
		o.Edits += fc.Edits
		for _, op := range fc.Operations {
			if !slices.Contains(o.Operations, op) {
				o.Operations = append(o.Operations, op)
			}
		}
	} else {
		fc.Path = to
		s.byPat[to] = fc
		s.order = append(s.order, to)
	}
	s.seq++
	s.last[to] = s.seq
}

// drop removes a file's entry.
func (s *fileSet) drop(p string) {
	delete(s.byPat, p)
	delete(s.last, p)
	for i, o := range s.order {
		if o == p {
			s.order = append(s.order[:i], s.order[i+1:]...)
			break
		}
	}
}
