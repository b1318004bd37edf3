package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDelegateOfflineE2E runs two tasks on the offline provider through
// the binary: the --json stream nests each subagent's lines under its
// task's item, the session log records the subagents' conversations apart
// from the session's, and the session resumes.
func TestDelegateOfflineE2E(t *testing.T) {
	t.Parallel()
	ws, home := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "main.go"), []byte("package main\n\nfunc main() {}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := withHome(map[string]string{"MOCK": "1"}, home)
	// No language server: gopls, where CI installed it, would start on the
	// reads and write its caches into HOME while the test's cleanup runs.
	if err := os.MkdirAll(env["TERN_HOME"], 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(env["TERN_HOME"], "config.toml"), []byte("lsp = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := tern(t, ws, env, "", "run", "--json", "delegate: read main.go; search for main")
	if r.code != 0 {
		t.Fatalf("exit %d\nstderr: %s", r.code, r.stderr)
	}
	tasks := map[string]bool{}
	nested := map[string]int{}
	sc := bufio.NewScanner(strings.NewReader(r.stdout))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l map[string]any
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		switch l["type"] {
		case "item.started":
			if it, _ := l["item"].(map[string]any); it["tool"] == "task" {
				tasks[it["id"].(string)] = true
			}
		case "item.subagent":
			id, _ := l["item_id"].(string)
			if !tasks[id] {
				t.Fatalf("item.subagent under %q before its task started", id)
			}
			nested[id]++
		}
	}
	if len(tasks) != 2 || len(nested) != 2 {
		t.Fatalf("tasks %v, nested lines %v", tasks, nested)
	}
	files := sessionFiles(t, env["TERN_HOME"])
	if len(files) != 1 {
		t.Fatalf("session files %v", files)
	}
	b, err := os.ReadFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(b), `"type":"subagent"`); n < 6 {
		t.Errorf("%d subagent records in the log", n)
	}
	if !strings.Contains(string(b), `"task":"call_delegate_`) {
		t.Error("no request or usage record names its task")
	}
	r = tern(t, ws, env, "", "run", "-c", "read main.go")
	if r.code != 0 || strings.Contains(r.stderr, "skipped") {
		t.Fatalf("resume: exit %d\nstderr: %s", r.code, r.stderr)
	}
}
