package transcript

import (
	"context"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
)

// VS Code keeps a folder's chats under
// <user dir>/workspaceStorage/<hash>/chatSessions/: <id>.json in older
// versions, <id>.jsonl mutation logs in newer ones. The hash is not of
// the path, so the folder is read from the workspace.json beside it
// ({"folder": "file:///home/dev/app"}).

// vscodeUserDirs are VS Code's user data folders under home, for the
// editions that keep chats the same way (Linux and macOS).
func vscodeUserDirs(home string) []string {
	var out []string
	for _, edition := range []string{"Code", "Code - Insiders", "VSCodium"} {
		out = append(out,
			filepath.Join(home, ".config", edition, "User"),
			filepath.Join(home, "Library", "Application Support", edition, "User"))
	}
	return out
}

// vscodeChatFiles lists the chat session files with extension ext
// (".json" or ".jsonl") of the workspaces whose folder is dir.
func vscodeChatFiles(home, dir, ext string) []SessionRef {
	var out []SessionRef
	for _, user := range vscodeUserDirs(home) {
		spaces, _ := filepath.Glob(filepath.Join(user, "workspaceStorage", "*", "workspace.json"))
		for _, ws := range spaces {
			if workspaceFolder(ws) == dir {
				out = append(out, filesIn(filepath.Join(filepath.Dir(ws), "chatSessions", "*"+ext))...)
			}
		}
	}
	return out
}

// workspaceFolder reads the folder a workspace.json names, as a cleaned
// path; "" for a remote or multi-root workspace, or one it cannot read.
func workspaceFolder(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	var ws struct {
		Folder string `json:"folder"`
	}
	if json.Unmarshal(b, &ws) != nil {
		return ""
	}
	u, err := url.Parse(ws.Folder)
	if err != nil || u.Scheme != "file" || u.Path == "" {
		return ""
	}
	return filepath.Clean(u.Path)
}

// findVSCodeChat lists VS Code's JSON chat sessions of dir.
func findVSCodeChat(_ context.Context, home, dir string) []SessionRef {
	return vscodeChatFiles(home, dir, ".json")
}

// findVSCodeChatLog lists VS Code's JSONL chat session logs of dir.
func findVSCodeChatLog(_ context.Context, home, dir string) []SessionRef {
	return vscodeChatFiles(home, dir, ".jsonl")
}
