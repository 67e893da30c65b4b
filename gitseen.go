package handoff

// GitSeen is the repository state the session's own git commands showed:
// the newest `git status` it ran, adjusted by what came after it (commits,
// pushes, staging, the agent's edits), the commits it made that no push
// followed, and its newest push.
//
// It is separate from GitState on purpose. GitState is what git itself
// says when the prompt is compiled, on the machine that compiles it;
// GitSeen is only what the transcript shows, so it is all a successor has
// when the prompt is compiled with --no-git or elsewhere, and it can be
// stale: every claim carries the message it rests on, and later work the
// transcript does not explain is flagged rather than guessed at.
type GitSeen struct {
	// Status is the message of the newest whole-tree `git status` read;
	// nil when the session ran none (the rest of the tree fields are then
	// empty).
	Status *MessageRef `json:"status,omitempty"`
	// Branch is the branch the status or a later commit named.
	Branch string `json:"branch,omitempty"`
	// Head is the branch the session was on at its end as git's own
	// output last said it: a status, a commit, or a checkout or switch
	// ("Switched to branch 'x'"), which Branch leaves to Changed because
	// the status's file lists were read on the branch before.
	Head string `json:"head,omitempty"`
	// Upstream is the tracking branch the status named ("origin/main");
	// Ahead and Behind count commits against it as of the status, Ahead
	// plus the commits made after it and zero after a successful push.
	Upstream string `json:"upstream,omitempty"`
	Ahead    int    `json:"ahead,omitempty"`
	Behind   int    `json:"behind,omitempty"`
	// Clean reports that the status said "nothing to commit" and nothing
	// seen since changed the tree.
	Clean bool `json:"clean,omitempty"`
	// Modified, Staged and Untracked are the status's paths as adjusted
	// by later staging, commits and discards.
	Modified  []string `json:"modified,omitempty"`
	Staged    []string `json:"staged,omitempty"`
	Untracked []string `json:"untracked,omitempty"`
	// Edited are files the agent's tools changed after the status that it
	// did not already list, and that no later commit took.
	Edited []string `json:"edited,omitempty"`
	// Commits are the hashes of the commits made after the status.
	Commits []string `json:"commits,omitempty"`
	// Changed is the newest message after the status whose effect on the
	// tree is not known (a commit whose output was cut, a checkout, pull,
	// merge or stash pop), nil when none.
	Changed *MessageRef `json:"changed,omitempty"`
	// ChangedBy is the command or tool of Changed, clipped.
	ChangedBy string `json:"changed_by,omitempty"`

	// Unpushed are the hashes of the commits the session made after its
	// last successful push (all of its commits when it pushed none),
	// oldest first: not pushed as far as the transcript shows.
	Unpushed []string `json:"unpushed,omitempty"`
	// Push is the message of the newest successful `git push`, with the
	// remote and the ref updates git printed ("de1182e..76e7753  main -> main").
	Push       *MessageRef `json:"push,omitempty"`
	PushRemote string      `json:"push_remote,omitempty"`
	PushRefs   []string    `json:"push_refs,omitempty"`
	// PushFailed is a failed `git push` newer than Push, with git's
	// first error line.
	PushFailed *MessageRef `json:"push_failed,omitempty"`
	PushError  string      `json:"push_error,omitempty"`
}
