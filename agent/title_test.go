package agent

import (
	"strings"
	"testing"
)

func TestCleanTitle(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"\"Fix the loader.\"\n", "Fix the loader"},
		{"  **Streaming   session\nloader**  ", "Streaming session loader"},
		{"“Überprüfe Tests”", "Überprüfe Tests"},
		{"", ""},
		{strings.Repeat("word ", 20), strings.TrimSpace(strings.Repeat("word ", 11)) + "…"},
	}
	for _, tt := range tests {
		if got := CleanTitle(tt.in); got != tt.want {
			t.Errorf("CleanTitle(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
