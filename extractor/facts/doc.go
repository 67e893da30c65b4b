// Package facts is the extractor's layer of facts computed from tool
// calls rather than judged from words: the plan, the files written, the
// commands and checks run, test state, git state, commits, and which
// errors are open, settled or worked around. The conversation, decisions
// and next-step layers read these; nothing here reads them.
package facts
