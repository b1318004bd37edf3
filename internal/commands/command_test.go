package commands

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestExpand(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, body, args, want string
	}{
		{"arguments", "Review $ARGUMENTS carefully.", "the error paths", "Review the error paths carefully."},
		{"positional", "Compare $1 with $2.", "a.go b.go", "Compare a.go with b.go."},
		{"quoted", "Title: $1; body: $2", `"fix the bug" now`, "Title: fix the bug; body: now"},
		{"missing positional", "[$1][$3]", "one", "[one][]"},
		{"both", "$1 then $ARGUMENTS", "x y", "x then x y"},
		{"no placeholder appends", "Summarise the diff.", "briefly", "Summarise the diff.\n\nbriefly"},
		{"no placeholder no args", "Summarise the diff.\n", "", "Summarise the diff."},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := (Command{Body: tc.body}).Expand(tc.args); got != tc.want {
				t.Errorf("Expand(%q) = %q, want %q", tc.args, got, tc.want)
			}
		})
	}
}

func TestLoad(t *testing.T) {
	t.Parallel()
	root, home := t.TempDir(), t.TempDir()
	write(t, filepath.Join(home, "commands", "review.md"), "---\ndescription: review the change\nargument-hint: \"[focus]\"\nmodel: gpt-x\n---\nReview, focusing on $ARGUMENTS.\n")
	write(t, filepath.Join(home, "commands", "help.md"), "a user /help cannot run\n")
	write(t, filepath.Join(root, ".tern", "commands", "git", "pr.md"), "Write a PR description for $1.\n")
	write(t, filepath.Join(root, ".tern", "commands", "review.md"), "project review\n")
	write(t, filepath.Join(root, ".tern", "commands", "clear.md"), "project clear\n")
	write(t, filepath.Join(root, ".tern", "commands", "deploy.md"), "---\ndescription: ship it\n---\nDeploy.\n")
	write(t, filepath.Join(root, ".tern", "commands", "notes.txt"), "not a command\n")
	builtin := func(n string) bool { return n == "help" || n == "clear" }

	cmds, err := Load(root, home, builtin)
	if err == nil || !strings.Contains(err.Error(), "/help is a built-in") {
		t.Errorf("err = %v, want the user /help reported", err)
	}
	var got []string
	for _, c := range cmds {
		got = append(got, c.Label())
	}
	byInvoke := map[string]Command{}
	for _, c := range cmds {
		byInvoke[c.Invoke] = c
	}
	checks := []struct {
		invoke   string
		src      Source
		shadowed bool
		body     string
	}{
		{"review", SourceUser, false, "Review, focusing on $ARGUMENTS.\n"},
		{"git:pr", SourceProject, false, "Write a PR description for $1.\n"},
		{"deploy", SourceProject, false, "Deploy.\n"},
		{"project:review", SourceProject, true, "project review\n"},
		{"project:clear", SourceProject, true, "project clear\n"},
	}
	if len(cmds) != len(checks) {
		t.Fatalf("loaded %v, want %d commands", got, len(checks))
	}
	for _, c := range checks {
		cmd, ok := byInvoke[c.invoke]
		if !ok {
			t.Errorf("no /%s among %v", c.invoke, got)
			continue
		}
		if cmd.Source != c.src || cmd.Shadowed != c.shadowed || cmd.Body != c.body {
			t.Errorf("/%s = %+v, want source %v shadowed %v body %q", c.invoke, cmd, c.src, c.shadowed, c.body)
		}
	}
	r := byInvoke["review"]
	if r.Description != "review the change" || r.ArgumentHint != "[focus]" || r.Model != "gpt-x" {
		t.Errorf("front matter = %+v", r)
	}
	if l := byInvoke["deploy"].Label(); l != "/deploy (project)" {
		t.Errorf("a project command shadowing nothing is listed as %q, want /deploy (project)", l)
	}
	if l := byInvoke["project:clear"].Label(); l != "/clear (project)" {
		t.Errorf("a shadowed project command is listed as %q, want /clear (project) (it runs as /project:clear)", l)
	}
	if c, ok := Find(cmds, "GIT:PR"); !ok || c.Name != "git:pr" {
		t.Errorf("Find(GIT:PR) = %+v, %v", c, ok)
	}
	if _, ok := Find(cmds, "clear"); ok {
		t.Error("a project command replaced the built-in /clear")
	}
}

func TestLoadMissingDirs(t *testing.T) {
	t.Parallel()
	cmds, err := Load(filepath.Join(t.TempDir(), "none"), "", nil)
	if err != nil || len(cmds) != 0 {
		t.Errorf("Load of nothing = %v, %v", cmds, err)
	}
}

func TestAttachMentions(t *testing.T) {
	t.Parallel()
	attach := func(p string) (string, error) {
		if p == "secret.env" {
			return "", errors.New("refused")
		}
		return "contents of " + p, nil
	}
	text, errs := AttachMentions("look at @main.go and @secret.env.", attach)
	if !strings.Contains(text, "<file path=\"main.go\">\ncontents of main.go\n</file>") {
		t.Errorf("text = %q", text)
	}
	if len(errs) != 1 || !strings.Contains(errs[0].Error(), "@secret.env: refused") {
		t.Errorf("errs = %v", errs)
	}
}

func TestLoadRefusesLinks(t *testing.T) {
	t.Parallel()
	root, outside := t.TempDir(), t.TempDir()
	secret := filepath.Join(outside, "id_ed25519")
	write(t, secret, "PRIVATE KEY\n")
	dir := filepath.Join(root, ".tern", "commands")
	write(t, filepath.Join(dir, "ok.md"), "fine\n")
	if err := os.Symlink(secret, filepath.Join(dir, "key.md")); err != nil {
		t.Skip("no symlinks:", err)
	}
	cmds, err := Load(root, "", nil)
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("err = %v, want the link reported", err)
	}
	for _, c := range cmds {
		if strings.Contains(c.Body, "PRIVATE KEY") {
			t.Fatalf("a linked file became /%s", c.Name)
		}
	}
	if len(cmds) != 1 || cmds[0].Name != "ok" {
		t.Errorf("cmds = %+v", cmds)
	}
}
