package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecretFilesRefused: with the workspace at the home directory, tern's
// own $TERN_HOME/config.toml (which may hold api_key) is inside it; the
// read tools refuse it by its path, in any case and through a hard link.
func TestSecretFilesRefused(t *testing.T) {
	t.Parallel()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	const marker = "CONFIG-KEY-SECRET-a71d"
	config := filepath.Join(root, ".tern", "config.toml")
	if err := os.MkdirAll(filepath.Dir(config), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(config, []byte(`api_key = "`+marker+`"`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(config, filepath.Join(root, "notes.toml")); err != nil {
		t.Fatal(err)
	}
	w, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	w.SecretFiles = []string{config}
	for _, c := range []struct {
		tool Tool
		args string
	}{
		{NewReadFile(w), `{"path":".tern/config.toml"}`},
		{NewReadFile(w), `{"path":".TERN/CONFIG.TOML"}`},
		{NewReadFile(w), `{"path":"notes.toml"}`},
		{NewGrep(w), `{"pattern":"api_key"}`},
		{NewGrep(w), `{"pattern":"api_key","path":".tern"}`},
	} {
		if res := c.tool.Run(context.Background(), json.RawMessage(c.args), nil); strings.Contains(res.Output, marker) {
			t.Errorf("%s %s showed tern's config: %s", c.tool.Spec().Name, c.args, res.Output)
		}
	}
}
