package markdown

import (
	"strings"
	"testing"
)

func TestCapNesting(t *testing.T) {
	t.Parallel()
	deep := strings.Repeat("> ", maxMarkers+5) + "x"
	kept := strings.Repeat("> ", maxMarkers-1) + ">" + " x"
	tests := []struct{ name, in, want string }{
		{"shallow is untouched", "> > - 1. x\n", "> > - 1. x\n"},
		{"deep quotes are cut", deep + "\n", kept + "\n"},
		{"deep lists are cut", strings.Repeat("- ", maxMarkers+1) + "x", strings.Repeat("- ", maxMarkers-1) + "-" + " x"},
		{"inside a fence nothing changes", "```\n" + deep + "\n```\n", "```\n" + deep + "\n```\n"},
		{"after a fence it does", "```\n```\n" + deep, "```\n```\n" + kept},
		{"a thematic break is no marker", "- - -\n", "- - -\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := capNesting(tt.in); got != tt.want {
				t.Errorf("capNesting(%q)\n = %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}
