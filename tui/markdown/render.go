package markdown

import (
	"fmt"
	"strings"

	"charm.land/glamour/v2"
	"charm.land/glamour/v2/ansi"
	"charm.land/glamour/v2/styles"
)

// Style picks the glamour style sheet.
type Style int

// The styles tern renders with; the set is closed.
const (
	// Dark suits terminals with a dark background.
	Dark Style = iota + 1
	// Light suits terminals with a light background.
	Light
	// Plain has no colours, for NO_COLOR.
	Plain
)

func (s Style) config() ansi.StyleConfig {
	switch s {
	case Dark:
		return styles.DarkStyleConfig
	case Light:
		return styles.LightStyleConfig
	case Plain:
		return styles.NoTTYStyleConfig
	}
	return styles.NoTTYStyleConfig
}

// Renderer turns Markdown into terminal lines of one width and style. It is
// not safe for concurrent use (neither is glamour); make one per goroutine.
type Renderer struct {
	r     *glamour.TermRenderer
	width int
}

// NewRenderer makes a renderer that wraps text to fit width cells.
func NewRenderer(style Style, width int) (*Renderer, error) {
	width = max(width, 10)
	r, err := glamour.NewTermRenderer(glamour.WithStyles(style.config()), glamour.WithWordWrap(width))
	if err != nil {
		return nil, fmt.Errorf("markdown renderer: %w", err)
	}
	return &Renderer{r: r, width: width}, nil
}

// Lines renders src and returns its lines without the blank lines glamour puts
// around a document and without the padding it adds to every line.
func (r *Renderer) Lines(src string) ([]string, error) {
	lines, _, err := r.render(src)
	return lines, err
}

// render is Lines that also returns how many blank lines must separate these
// lines from a block rendered after them: glamour ends most blocks with one
// blank line but nested lists with more.
func (r *Renderer) render(src string) ([]string, int, error) {
	if isBlank(src) {
		return nil, 0, nil
	}
	// Tabs are expanded in the source, where a tab's column is known;
	// CommonMark reads block structure with the same 4-column stops.
	out, err := r.r.Render(ExpandTabs(src))
	if err != nil {
		return nil, 0, fmt.Errorf("render markdown: %w", err)
	}
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		lines[i] = TrimPadding(l)
	}
	trail := 0
	for len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
		trail++
	}
	for len(lines) > 0 && lines[0] == "" {
		lines = lines[1:]
	}
	return fitTables(lines), max(1, trail-1), nil
}

// TrimPadding removes the trailing spaces glamour pads each line with (each
// wrapped in its own SGR pair, which makes lines 16 to 35 times their text)
// while keeping spaces drawn on a background colour. A line that keeps any
// escape sequence ends with a reset. A line with nothing visible becomes "".
func TrimPadding(line string) string {
	cut, bg, hasEsc := 0, false, false
	for i := 0; i < len(line); {
		c := line[i]
		if c == 0x1b && i+1 < len(line) && line[i+1] == '[' {
			j := i + 2
			for j < len(line) && (line[j] < 0x40 || line[j] > 0x7e) {
				j++
			}
			if j < len(line) && line[j] == 'm' {
				bg = sgrBackground(line[i+2:j], bg)
			}
			hasEsc = true
			i = j + 1
			continue
		}
		i++
		if c != ' ' || bg {
			cut = i
		}
	}
	if cut == 0 {
		return ""
	}
	if !hasEsc {
		return line[:cut]
	}
	if cut == len(line) && strings.HasSuffix(line, "\x1b[m") {
		return line
	}
	// cut may fall before the sequences that closed the last visible cell;
	// close everything ourselves.
	return line[:cut] + "\x1b[m"
}

// sgrBackground applies SGR parameters to the "a background is set" state.
func sgrBackground(params string, bg bool) bool {
	if params == "" {
		return false
	}
	ps := strings.Split(params, ";")
	for i := 0; i < len(ps); i++ {
		switch p := ps[i]; {
		case p == "0" || p == "" || p == "49":
			bg = false
		case p == "38" || p == "58": // extended foreground/underline colour: skip its arguments
			i += colorArgs(ps, i)
		case p == "48":
			bg = true
			i += colorArgs(ps, i)
		case (len(p) == 2 && p[0] == '4' && p[1] >= '0' && p[1] <= '7') || (len(p) == 3 && strings.HasPrefix(p, "10") && p[2] >= '0' && p[2] <= '7'):
			bg = true
		}
	}
	return bg
}

// colorArgs counts the arguments after an extended colour parameter at ps[i].
func colorArgs(ps []string, i int) int {
	if i+1 >= len(ps) {
		return 0
	}
	switch ps[i+1] {
	case "5":
		return 2
	case "2":
		return 4
	}
	return 0
}
