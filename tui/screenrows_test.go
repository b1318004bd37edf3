package tui

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	uv "github.com/charmbracelet/ultraviolet"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools"
)

func TestSelfContained(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		row  string
		want bool
	}{
		{"", true},
		{"plain text", true},
		{"\x1b[38;5;252mtext\x1b[m", true},
		{"\x1b[1mbold\x1b[0m and plain", true},
		{"\x1b[38;5;252mleft open", false},
		{"\x1b[1mbold\x1b[22m", false}, // not a full reset
		{"\x1b]8;;https://x\x1b\\link\x1b]8;;\x1b\\", false},
		{"\x1b[2Kerased", false},
		{"carriage\rreturn", false},
		{"\u0301accent first", false},
		{"\x1b[m\u0301accent after a reset", false},
		{"é composed", true},
		{"bad \xff utf-8", false},
		{"\x1b", false},
		{"\x1b[38;5", false},
	} {
		if got := selfContained(c.row); got != c.want {
			t.Errorf("selfContained(%q) = %v, want %v", c.row, got, c.want)
		}
	}
}

// TestViewFieldsAreKnown fails when Bubble Tea's View gains a field that
// sameModes does not compare.
func TestViewFieldsAreKnown(t *testing.T) {
	t.Parallel()
	vt := reflect.TypeFor[tea.View]()
	var got []string
	for i := range vt.NumField() {
		got = append(got, vt.Field(i).Name)
	}
	if !reflect.DeepEqual(got, viewFields()) {
		t.Errorf("tea.View has fields %v, sameModes knows %v: compare the new ones there", got, viewFields())
	}
}

// frameScreens drives a model through the screens a session shows: an
// answer with code and a table streamed frame by frame, typing, the command
// palette, a resize; it returns each screen.
func frameScreens(t *testing.T, w, h int) []string {
	t.Helper()
	m, fb := newTestModel(t, Options{})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	startStream(t, m, fb)
	var screens []string
	shot := func() { screens = append(screens, m.View().Content) }
	answer := longAnswer(12 << 10)
	for i := 0; i < len(answer); i += 150 {
		m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTextDelta, Turn: 1, Text: answer[i:min(i+150, len(answer))]}}})
		m.Update(frameMsg{id: m.frameID})
		shot()
		if i%1500 == 0 {
			typeText(m, "ab")
			shot()
		}
	}
	m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTurnFinished, Turn: 1, Finish: &agent.Finish{Reason: agent.FinishDone}}}})
	shot()
	typeText(m, "/")
	shot()
	typeText(m, "co")
	shot()
	press(m, keyEsc)
	shot()
	m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
	shot()
	// An approval dialog with a diff, typed into, and answered.
	startTurn(m)
	call := &agent.Call{ID: "c", Name: "edit_file", Args: json.RawMessage(`{}`)}
	req := agent.NewApprovalRequest("r", *call, tools.KindEdit,
		tools.Preview{Path: "a.go", Diff: "--- a/a.go\n+++ b/a.go\n@@ -1,2 +1,2 @@\n-x := 1\n+x := 2\n y := 3\n"}, agent.Scope{Label: "this"})
	events(m, agent.Event{Kind: agent.EventApprovalRequested, Call: call, Approval: req})
	shot()
	if !strings.Contains(screens[len(screens)-1], "x := 2") {
		t.Fatalf("no approval dialog on screen:\n%s", screens[len(screens)-1])
	}
	typeText(m, "n")
	shot()
	return screens
}

// TestRedrawRowsMatchesWholeDraw checks that drawing only the changed rows
// of each screen leaves the renderer's cells as Bubble Tea's whole draw
// does, and that most screens can be drawn so.
func TestRedrawRowsMatchesWholeDraw(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{120, 40}, {80, 24}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			t.Parallel()
			screens := frameScreens(t, size[0], size[1])
			rows, whole := uv.NewScreenBuffer(size[0], size[1]), uv.NewScreenBuffer(size[0], size[1])
			last, byRows := "", 0
			for i, s := range screens {
				whole.Clear()
				uv.NewStyledString(s).Draw(whole, whole.Bounds())
				if i > 0 && allSelfContained(last) && allSelfContained(s) {
					redrawRows(rows, last, s, nil)
					byRows++
				} else {
					rows.Clear()
					uv.NewStyledString(s).Draw(rows, rows.Bounds())
				}
				last = s
				for y := range size[1] {
					if a, b := rows.Line(y).Render(), whole.Line(y).Render(); a != b {
						t.Fatalf("screen %d row %d drawn by rows:\n%q\nwhole:\n%q", i, y, a, b)
					}
				}
			}
			if byRows < len(screens)*9/10 {
				t.Errorf("only %d of %d screens could be drawn by rows", byRows, len(screens))
			}
		})
	}
}

// viewsModel writes a list of views through a screen writer, by rows or
// not, noting where each frame ends in the output, then quits. It starts on the program's first window size, which
// Bubble Tea sends from a goroutine and which marks the screen for a full
// repaint when handled: starting before it would let that repaint land
// between the views in one run and after them in the other.
type viewsModel struct {
	w      *screenWriter
	views  []tea.View
	byRows bool
	wrote  *int
	out    *lockedBuffer
	ends   *[]int // where each view's frame ended in out
}

func (m viewsModel) Init() tea.Cmd { return nil }

func (m viewsModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(tea.WindowSizeMsg); !ok {
		return m, nil
	}
	for _, v := range m.views {
		m.w.write(v)
		*m.ends = append(*m.ends, m.out.len())
		if !m.byRows {
			m.w.fast = false
		}
	}
	*m.wrote = m.w.byRows
	return m, tea.Quit
}

func (m viewsModel) View() tea.View { return m.views[len(m.views)-1] }
