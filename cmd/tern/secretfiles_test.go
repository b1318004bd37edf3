package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ternhq/tern/internal/app"
)

// TestTernConfigRefusedInHomeWorkspace: tern started in the home directory
// has its own $TERN_HOME/config.toml, which may hold api_key, inside the
// workspace; the read tools must refuse it as they refuse a secret file.
func TestTernConfigRefusedInHomeWorkspace(t *testing.T) {
	t.Parallel()
	g := newSSEGateway(t, func(s *sse, _ chatRequest, _ *http.Request) {
		s.text("ok", 1, 0)
		s.finish("stop")
	})
	f := newExitFixture(t, g.srv.URL)
	const marker = "TERN-CONFIG-KEY-2f8c"
	config := filepath.Join(f.home, ".tern", "config.toml")
	if err := os.WriteFile(config, []byte(`api_key = "`+marker+`"`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	c := f.cli(&bytes.Buffer{}, &bytes.Buffer{})
	c.cwd = f.home
	fs, flags := newFlagSet("tern")
	if err := fs.Parse(nil); err != nil {
		t.Fatal(err)
	}
	cfg, err := c.loadConfig(flags)
	if err != nil {
		t.Fatal(err)
	}
	a, err := c.wire(context.Background(), cfg, wireOptions{notices: &bytes.Buffer{}, session: app.Choice{Mode: app.ResumeNone}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close() })
	for _, call := range []struct{ tool, args string }{
		{"read_file", `{"path":".tern/config.toml"}`},
		{"grep", `{"pattern":"api_key","path":".tern"}`},
	} {
		tool, ok := a.Registry.Get(call.tool)
		if !ok {
			t.Fatalf("no %s", call.tool)
		}
		if res := tool.Run(context.Background(), json.RawMessage(call.args), nil); strings.Contains(res.Output, marker) {
			t.Errorf("%s %s showed tern's config.toml: %s", call.tool, call.args, res.Output)
		}
	}
}
