package config

import (
	"strings"
	"testing"
)

func TestMask(t *testing.T) {
	t.Parallel()
	tests := []struct{ key, want string }{
		{"", "not set"},
		{"short", "set (5 chars)"},
		{"fifteen-chars-x", "set (15 chars)"},
		{"sk-proj-0123456789abcdef", "sk-…cdef"},
		{"gsk_ABCDEFGHIJKLMNOPwxyz", "gsk…wxyz"},
	}
	for _, tc := range tests {
		if got := Mask(tc.key); got != tc.want {
			t.Errorf("Mask(%q) = %q, want %q", tc.key, got, tc.want)
		}
		if len(tc.key) >= 8 && strings.Contains(Mask(tc.key), tc.key[3:len(tc.key)-4]) {
			t.Errorf("Mask(%q) reveals the middle of the key", tc.key)
		}
	}
}

func TestRedact(t *testing.T) {
	t.Parallel()
	key := "sk-proj-0123456789abcdef"
	got := Redact("Incorrect API key provided: "+key+". Again: "+key, key, "")
	if strings.Contains(got, key) {
		t.Fatalf("Redact left the key in %q", got)
	}
	if want := "Incorrect API key provided: sk-…cdef. Again: sk-…cdef"; got != want {
		t.Errorf("Redact = %q, want %q", got, want)
	}
}

// TestRedactLeavesPlaceholderKeys: a placeholder key a local gateway is
// given ("x", "none", "ollama") is not masked inside the words of a
// message; a real one is, wherever it appears.
func TestRedactLeavesPlaceholderKeys(t *testing.T) {
	t.Parallel()
	tests := []struct {
		key, in, want string
	}{
		{"x", "nothing is listening at http://127.0.0.1:1/v1: exit", "nothing is listening at http://127.0.0.1:1/v1: exit"},
		{"none", "none of the tools", "none of the tools"},
		{"ollama", "ollama said no", "ollama said no"},
		{"sk-12345", "key sk-12345 rejected", "key set (8 chars) rejected"},
		{"0123456789abcdefgh", "bad key 0123456789abcdefgh.", "bad key 012…efgh."},
	}
	for _, tt := range tests {
		if got := Redact(tt.in, tt.key); got != tt.want {
			t.Errorf("Redact(%q, %q) = %q, want %q", tt.in, tt.key, got, tt.want)
		}
	}
}
