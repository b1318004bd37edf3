package markdown

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestTablesFitContent(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("word ", 30)
	tests := []struct {
		name  string
		style Style
		src   string
		want  []string // the lines, styles stripped
	}{
		{
			name: "two short columns", style: Plain,
			src:  "| key | value |\n|---|---|\n| a | 1 |\n| bb | 22 |\n",
			want: []string{"   key | value", "  -----|-------", "   a   | 1", "   bb  | 22"},
		},
		{
			name: "styled and aligned", style: Dark,
			src: "| name | size |\n|:--|--:|\n| `go.mod` | 12 |\n| **main.go** | 3400 |\n",
			// The code span's padding is drawn on its background: content.
			want: []string{"   name     │ size", "  ──────────┼──────", "   \u00a0go.mod\u00a0 │   12", "   main.go  │ 3400"},
		},
		{
			name: "content wider than the screen wraps", style: Plain,
			src: "| a | b |\n|---|---|\n| " + long + "| x |\n",
			want: []string{
				"   a                                                           | b",
				"  -------------------------------------------------------------|---",
				"   word word word word word word word word word word word word | x",
				"   word word word word word word word word word word word word |",
				"   word word word word word word                               |",
			},
		},
		{
			name: "a thematic break is no table", style: Plain,
			src:  "above\n\n---\n\nbelow\n",
			want: []string{"  above", "", "  --------", "", "  below"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, err := NewRenderer(tt.style, 70)
			if err != nil {
				t.Fatal(err)
			}
			lines, err := r.Lines(tt.src)
			if err != nil {
				t.Fatal(err)
			}
			got := make([]string, len(lines))
			for i, l := range lines {
				got[i] = ansi.Strip(l)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}
