package main

import (
	"os"
	"regexp"
	"strings"
	"testing"
)

// TestUsageExitStatusMatchesDocs checks that the exit statuses the usage
// texts list are those of docs/cli.md's table.
func TestUsageExitStatusMatchesDocs(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../../docs/cli.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, ok := strings.Cut(string(doc), "## Exit status")
	if !ok {
		t.Fatal("docs/cli.md has no Exit status section")
	}
	table, _, _ = strings.Cut(table, "\n## ")
	var codes []string
	for _, m := range regexp.MustCompile("(?m)^\\| `(\\d+)`").FindAllStringSubmatch(table, -1) {
		codes = append(codes, m[1])
	}
	if len(codes) < 4 {
		t.Fatalf("found only %q in docs/cli.md's table", codes)
	}
	tests := []struct{ name, usage string }{
		{"tern --help", rootUsage},
		{"tern run --help", runUsage},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, exits, ok := strings.Cut(tt.usage, "Exit status:")
			if !ok {
				t.Fatalf("%s has no Exit status line", tt.name)
			}
			exits, _, _ = strings.Cut(exits, "\nMore:")
			listed := regexp.MustCompile(`\b\d+\b`).FindAllString(exits, -1)
			for _, c := range codes {
				if !strings.Contains(" "+strings.Join(listed, " ")+" ", " "+c+" ") {
					t.Errorf("%s does not list exit status %s (it lists %q)", tt.name, c, listed)
				}
			}
		})
	}
}
