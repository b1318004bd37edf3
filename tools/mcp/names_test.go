package mcp

import (
	"strings"
	"testing"
)

func TestToolName(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 80)
	for _, c := range []struct {
		server, tool, want string
	}{
		{"github", "create_issue", "mcp__github__create_issue"},
		{"my.server", "get file/contents", "mcp__my_server__get_file_contents"},
		{"s", "ünï", "mcp__s___n_"},
		{"s", long, "mcp__s__" + strings.Repeat("x", 64-len("mcp__s__")-9) + "_" + hash8("mcp__s__"+long)},
	} {
		got := ToolName(c.server, c.tool)
		if got != c.want {
			t.Errorf("ToolName(%q, %q) = %q, want %q", c.server, c.tool, got, c.want)
		}
		if len(got) > MaxNameLen {
			t.Errorf("%q is longer than %d", got, MaxNameLen)
		}
	}
	// Two names that clamp to the same prefix differ by their hash, the
	// same on every run.
	a, b := ToolName("s", long+"a"), ToolName("s", long+"b")
	if a == b || a != ToolName("s", long+"a") {
		t.Errorf("clamped names %q and %q", a, b)
	}
}

func hash8(s string) string { return withHash("", s)[1:] }

func TestValidServerName(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{"github": true, "my-srv_2": true, "": false, "a b": false, "a__b": false, "a.b": false,
		// mcp__a_ + __x and mcp__a + ___x are both mcp__a___x: a server
		// named a_ would share names, and mcp__a__* rules, with a.
		"a_": false, "_a": false, "a_-": true} {
		if ValidServerName(name) != want {
			t.Errorf("ValidServerName(%q) != %v", name, want)
		}
	}
}

func TestSafeServerName(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ in, want string }{
		{"GitHub Tools", "GitHub-Tools"},
		{"a__b", "a_-b"},
		{"a_", "a-"},
		{"_a", "-a"},
		{"__", "--"},
		{"", "server"},
	} {
		got := SafeServerName(c.in)
		if got != c.want || !ValidServerName(got) {
			t.Errorf("SafeServerName(%q) = %q (valid %v), want %q", c.in, got, ValidServerName(got), c.want)
		}
	}
}
