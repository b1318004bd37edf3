package markdown

import (
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2/lexers"
	"github.com/alecthomas/chroma/v2/styles"
)

// TestWarmFillsRegistries checks that Warm leaves chroma ready: the lexer for
// Go and the embedded styles are registered, and a Go block is highlighted.
// It reads the registries directly, so it does not run in parallel.
func TestWarmFillsRegistries(t *testing.T) {
	Warm(Dark)
	if lexers.GlobalLexerRegistry.Get("go") == nil {
		t.Fatal("after Warm the lexer registry has no Go lexer")
	}
	if styles.Registry["swapoff"] == nil || styles.Fallback == nil {
		t.Fatalf("after Warm the style registry lacks the embedded styles (%d registered)", len(styles.Registry))
	}
	r, err := NewRenderer(Dark, 80)
	if err != nil {
		t.Fatal(err)
	}
	lines, err := r.Lines("```go\nfunc main() { return }\n```")
	if err != nil {
		t.Fatal(err)
	}
	joined := strings.Join(lines, "\n")
	// Highlighting colours the keyword apart from the identifier after it.
	if !strings.Contains(joined, "func") || strings.Count(joined, "\x1b[") < 4 {
		t.Fatalf("the Go block is not highlighted: %q", joined)
	}
}
