package mcp_test

import (
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/mcp"
)

func TestReadOnlyNeedsHintAndTrust(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		tool  string
		trust bool
		want  bool
	}{
		{"mcp__demo__look", true, true},   // readOnlyHint, trusted
		{"mcp__demo__look", false, false}, // readOnlyHint, mcp_trust_read_only off
		{"mcp__demo__echo", true, false},  // no hint: trust alone loosens nothing
		{"mcp__demo__echo", false, false},
	} {
		m := inProcessWith(t, mcp.Options{Servers: []mcp.ServerConfig{{Name: "demo", Command: "unused"}}, TrustReadOnly: c.trust},
			map[string]*sdk.Server{"demo": demoServer(nil)})
		wait(t, m)
		ro, ok := find(t, m, c.tool).(tools.ReadOnly)
		if !ok {
			t.Fatalf("%s does not implement tools.ReadOnly", c.tool)
		}
		if got := ro.ReadOnly(); got != c.want {
			t.Errorf("%s with trust %v: ReadOnly %v, want %v", c.tool, c.trust, got, c.want)
		}
	}
}
