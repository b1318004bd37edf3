package app

import (
	"strings"
	"testing"
)

func TestSlugOf(t *testing.T) {
	t.Parallel()
	tests := []struct{ in, want string }{
		{"Fix the login test!", "fix-the-login-test"},
		{"  ../../etc/passwd  ", "etc-passwd"},
		{"Überprüfe die Tests", "überprüfe-die-tests"},
		{"--", ""},
		{"", ""},
		{strings.Repeat("a ", 40), strings.TrimSuffix(strings.Repeat("a-", 25), "-")},
	}
	for _, tt := range tests {
		if got := slugOf(tt.in); got != tt.want {
			t.Errorf("slugOf(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
