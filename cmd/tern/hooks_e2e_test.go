package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ternhq/tern/internal/trust"
	"github.com/ternhq/tern/tools"
)

// TestE2EHooks: config.toml's hooks run in tern run (a failing one warns on
// stderr and the run succeeds; a before_tool exit 2 denies the write); a
// project's .tern/config.toml runs nothing until its exact content is
// approved, and again nothing once it changes.
func TestE2EHooks(t *testing.T) {
	t.Parallel()
	home, ws := t.TempDir(), t.TempDir()
	userCfg := "[[hooks]]\nevent = \"turn_end\"\ncommand = \"echo notifier broke >&2; exit 5\"\n\n" +
		"[[hooks]]\nevent = \"before_tool\"\nmatch = \"write_*\"\ncommand = \"echo no writes today >&2; exit 2\"\ntimeout = 5\n"
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(userCfg), 0o600); err != nil {
		t.Fatal(err)
	}
	project := "[[hooks]]\nevent = \"prompt\"\ncommand = \"touch project-hook-ran; echo project note\"\n"
	if err := os.MkdirAll(filepath.Join(ws, ".tern"), 0o755); err != nil {
		t.Fatal(err)
	}
	projectFile := filepath.Join(ws, ".tern", "config.toml")
	if err := os.WriteFile(projectFile, []byte(project), 0o644); err != nil {
		t.Fatal(err)
	}
	marker := filepath.Join(ws, "project-hook-ran")
	run := func(t *testing.T) (result, *fakeGateway) {
		t.Helper()
		g := newFakeGateway(t, scripted)
		env := map[string]string{"LLM_BASE_URL": g.url(), "LLM_API_KEY": e2eKey, "LLM_MODEL": "e2e-model", "TERN_HOME": home}
		r := tern(t, ws, env, "", "run", "--approval", "full-auto", "write hello.txt")
		if r.code != exitOK {
			t.Fatalf("exit %d\nstderr: %s", r.code, r.stderr)
		}
		return r, g
	}

	r, g := run(t)
	if !strings.Contains(r.stderr, "tern run: warning: hook echo notifier broke >&2; exit 5 (turn_end, "+filepath.Join(home, "config.toml")+":1) exited with 5: notifier broke") {
		t.Errorf("no warning for the failing turn_end hook:\n%s", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(ws, "hello.txt")); err == nil {
		t.Error("the write ran although a before_tool hook denied it")
	}
	g.mu.Lock()
	second := g.bodies[len(g.bodies)-1]
	g.mu.Unlock()
	if !strings.Contains(second, "no writes today") {
		t.Errorf("the denial's reason is not in the next request: %s", second)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Fatal("an unapproved project hook ran")
	}
	if !strings.Contains(r.stderr, ".tern/config.toml defines 1 hooks, not run") {
		t.Errorf("no notice of the unapproved project hooks:\n%s", r.stderr)
	}

	wsRoot, err := tools.NewWorkspace(ws)
	if err != nil {
		t.Fatal(err)
	}
	if err := (trust.Store{Home: home, File: hooksApprovals}).Approve(wsRoot.Root, []byte(project)); err != nil {
		t.Fatal(err)
	}
	_, g = run(t)
	if _, err := os.Stat(marker); err != nil {
		t.Error("the approved project hook did not run")
	}
	g.mu.Lock()
	first := g.bodies[0]
	g.mu.Unlock()
	if !strings.Contains(first, "project note") {
		t.Errorf("the prompt hook's note is not in the request: %s", first)
	}

	if err := os.Remove(marker); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(projectFile, []byte(project+"# changed\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	run(t)
	if _, err := os.Stat(marker); err == nil {
		t.Error("a changed project file's hook ran without a new approval")
	}
}
