package markdown

import (
	"fmt"
	"strings"
	"testing"
)

// tableBody is a table of about size bytes whose columns widen now and
// then, with alignments, escaped pipes, inline styles and ragged rows.
func tableBody(size int) string {
	var b strings.Builder
	b.WriteString("| name | value | note |\n|:-----|------:|:----:|\n")
	for i := 1; b.Len() < size; i++ {
		switch {
		case i%97 == 0:
			fmt.Fprintf(&b, "| row%d | %d | a much longer note that widens the column, then wraps %s |\n", i, i, strings.Repeat("x", i%40))
		case i%13 == 0:
			fmt.Fprintf(&b, "| row%d | %d |\n", i, i) // a cell short
		case i%17 == 0:
			fmt.Fprintf(&b, "| row%d | %d | a \\| b | extra |\n", i, i)
		default:
			fmt.Fprintf(&b, "| **row%d** | `%d` | note %d |\n", i, i*7, i)
		}
	}
	return b.String()
}

// TestStreamedTableMatchesWholeRender streams long tables ending in several
// ways, comparing every frame with a whole render.
func TestStreamedTableMatchesWholeRender(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, src string
		drawn     bool // the open table at the end is drawn row by row
	}{
		{"open", "The table:\n\n" + tableBody(8<<10), true},
		{"ends with a paragraph", tableBody(6<<10) + "\nAfter the table.\n", false},
		{"ends with a list", tableBody(5<<10) + "\n- a\n- b\n", false},
		{"lazy row", tableBody(4<<10) + "not a pipe row\n" + tableBody(2<<10), false},
		{"setext underline", tableBody(4<<10) + "---\n\ntext\n", false},
		{"two tables", tableBody(3<<10) + "\n" + tableBody(3<<10), true},
		{"wide columns", "| a | b | c | d | e | f | g | h | i | j | k | l |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n" +
			strings.Repeat("| aaaa | bbbbbb | c | dddddddd | e | f | g | h | i | j | k | l |\n", 120), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for _, width := range []int{30, 60, 120} {
				r, err := NewRenderer(Dark, width)
				if err != nil {
					t.Fatal(err)
				}
				s := streamFrames(t, r, tt.src, uint64(width)+3, 500)
				if drawn := s.table.ok && !s.table.stuck && len(s.table.lines) > 0; drawn != tt.drawn {
					t.Errorf("width %d: drawn row by row %v, want %v", width, drawn, tt.drawn)
				}
			}
		})
	}
}

// TestOpenTableFrameCostIsBounded streams a 3,000-row table: after the
// first rows each frame parses and draws only the rows that arrived.
func TestOpenTableFrameCostIsBounded(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString("| name | value | note |\n|------|------:|------|\n")
	for i := 1; i <= 3000; i++ {
		fmt.Fprintf(&b, "| row%d | %d | the note of row %d |\n", i, i*7, i)
	}
	src := b.String()
	r, err := NewRenderer(Dark, 118)
	if err != nil {
		t.Fatal(err)
	}
	frameCosts(t, r, fmt.Sprintf("%d bytes", len(src)), src, 2<<10, 16<<10, func(s *Stream, n int) {
		if s.table.stuck || !s.table.ok {
			t.Fatalf("at %d bytes the table is rendered whole", n)
		}
	})
}
