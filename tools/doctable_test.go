package tools

import (
	"os"
	"regexp"
	"slices"
	"testing"
)

// TestDocsTableListsTheRegistry checks docs/tools.md's table against the
// default registry, name by name and in order, so that a tool added to one
// cannot be missing from the other; diagnostics, registered when language
// servers are on, and propose_plan, which the agent adds in plan mode,
// follow them.
func TestDocsTableListsTheRegistry(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../docs/tools.md")
	if err != nil {
		t.Fatal(err)
	}
	var documented []string
	for _, m := range regexp.MustCompile("(?m)^\\| \\d+ +\\| `([a-z_]+)` ").FindAllSubmatch(doc, -1) {
		documented = append(documented, string(m[1]))
	}
	want := append(DefaultRegistry(nil, nil).Names(), DiagnosticsName, "propose_plan")
	if !slices.Equal(documented, want) {
		t.Errorf("docs/tools.md's table lists %q, the registry %q", documented, want)
	}
}
