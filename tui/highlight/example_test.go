package highlight_test

import (
	"fmt"

	"github.com/ternhq/tern/tui/highlight"
)

func ExampleTokens() {
	names := map[highlight.Kind]string{
		highlight.Keyword: "keyword", highlight.Name: "name", highlight.String: "string",
		highlight.Operator: "operator", highlight.Comment: "comment", highlight.Builtin: "builtin",
	}
	for _, tok := range highlight.Tokens("go title=main.go", `func main() { println("hi") } // done`) {
		if tok.Kind != highlight.Text {
			fmt.Printf("%s %q\n", names[tok.Kind], tok.Text)
		}
	}
	// Output:
	// keyword "func"
	// name "main"
	// builtin "println"
	// string "\"hi\""
	// comment "// done"
}
