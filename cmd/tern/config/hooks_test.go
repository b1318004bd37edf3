package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/tools/hooks"
)

func TestHooksFromConfig(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, file string
		want       []hooks.Hook
		err        string
	}{
		{"two hooks with lines", "model = \"m\"\n\n[[hooks]]\nevent = \"before_tool\"\nmatch = \"run_shell\"\ncommand = \"./guard.sh\"\ntimeout = 10\n\n[[hooks]]\nevent = \"turn_end\"\ncommand = \"notify-send done\"\n",
			[]hooks.Hook{{Event: hooks.BeforeTool, Match: "run_shell", Command: "./guard.sh", Timeout: 10 * time.Second, Line: 3}, {Event: hooks.TurnEnd, Command: "notify-send done", Line: 9}}, ""},
		{"unknown event", "[[hooks]]\nevent = \"after_edit\"\ncommand = \"x\"\n", nil, `unknown hook event "after_edit"`},
		{"no command", "[[hooks]]\nevent = \"prompt\"\n", nil, "a hook needs a command"},
		{"match on prompt", "[[hooks]]\nevent = \"prompt\"\nmatch = \"x\"\ncommand = \"x\"\n", nil, "match applies to before_tool and after_tool"},
		{"bad glob", "[[hooks]]\nevent = \"before_tool\"\nmatch = \"[\"\ncommand = \"x\"\n", nil, "match \"[\""},
		{"unknown key", "[[hooks]]\nevent = \"prompt\"\ncommand = \"x\"\nwhen = 1\n", nil, "unknown keys hooks.when"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			home := t.TempDir()
			path := filepath.Join(home, "config.toml")
			if err := os.WriteFile(path, []byte(tc.file), 0o600); err != nil {
				t.Fatal(err)
			}
			c, err := Load(Inputs{Getenv: func(k string) string {
				if k == EnvHome {
					return home
				}
				return ""
			}})
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(c.Hooks) != len(tc.want) {
				t.Fatalf("hooks %+v", c.Hooks)
			}
			for i, w := range tc.want {
				w.Source = path
				if c.Hooks[i] != w {
					t.Errorf("hook %d = %+v, want %+v", i, c.Hooks[i], w)
				}
			}
		})
	}
}

func TestLoadProjectHooks(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	if p, err := LoadProjectHooks(root); p != nil || err != nil {
		t.Fatalf("no file: %v, %v", p, err)
	}
	if err := os.MkdirAll(filepath.Join(root, ".tern"), 0o755); err != nil {
		t.Fatal(err)
	}
	text := "[[hooks]]\nevent = \"after_tool\"\nmatch = \"edit_*\"\ncommand = \"gofmt -l .\"\n"
	if err := os.WriteFile(filepath.Join(root, ".tern", "config.toml"), []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := LoadProjectHooks(root)
	if err != nil || len(p.Hooks) != 1 || p.Hooks[0].Line != 1 || string(p.Content) != text {
		t.Fatalf("%+v, %v", p, err)
	}
	if err := os.WriteFile(filepath.Join(root, ".tern", "config.toml"), []byte("api_key = \"x\"\n"+text), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadProjectHooks(root); err == nil || !strings.Contains(err.Error(), "holds [[hooks]] only") {
		t.Errorf("a project file setting api_key: %v", err)
	}
}
