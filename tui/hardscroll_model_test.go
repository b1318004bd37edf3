package tui

import (
	"encoding/json"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools"
)

// hostileAnswer is an answer a hostile model could stream: wide, combining,
// joined and right-to-left text, tables, code with tabs, a diff, lines
// longer than any screen, rows ending in spaces, the same row over and over,
// and escape sequences the sanitiser must take out.
func hostileAnswer() string {
	var b strings.Builder
	for i := range 12 {
		fmt.Fprintf(&b, "Intro %d: café cafe\u0301 a\u0300\u0301 soft\u00adhyphen nbsp\u00a0x ☺︎ ❤ ✔︎ שָׁלוֹם مَرْحَبًا नमस्ते สวัสดี end   \n\n", i)
	}
	for i := range 12 {
		fmt.Fprintf(&b, "- %d: 漢字かな 🙂 👍🏽 👨‍👩‍👧 🇫🇷 1️⃣ ❤️ ｗｉｄｅ \x1b[31mred?\x1b[0m\ttab\n", i)
	}
	b.WriteString("\n| a | 漢字 | b |\n|---|---|---|\n")
	for i := range 12 {
		fmt.Fprintf(&b, "| row %d | 字%d | %s |\n", i, i, strings.Repeat("x", i%7))
	}
	b.WriteString("\n```go\n")
	for i := range 12 {
		fmt.Fprintf(&b, "func f%d(x int) int {\n\treturn x // 漢字 🙂 %d\n}\n", i, i)
	}
	b.WriteString("```\n\n```diff\n")
	for i := range 10 {
		fmt.Fprintf(&b, "-old %d\n+new %d 漢字\n", i, i)
	}
	b.WriteString("```\n\n")
	for range 3 {
		b.WriteString(strings.Repeat("y", 250) + "\n\n" + strings.Repeat("漢", 100) + "\n\n" + strings.Repeat("e\u0301", 200) + "\n\n")
	}
	for range 15 {
		b.WriteString("same row\n\nsame row  \n\n")
	}
	return b.String()
}

// hostileScreens streams hostileAnswer through the model at w x h with a
// user's habits between frames, and returns every screen.
func hostileScreens(t *testing.T, w, h int, theme string) []string {
	t.Helper()
	m, fb := newTestModel(t, Options{Theme: theme})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	startStream(t, m, fb)
	var screens []string
	shot := func() { screens = append(screens, m.View().Content) }
	answer := hostileAnswer()
	for i, n := 0, 0; i < len(answer); n++ {
		end := min(i+40+n%7*30, len(answer))
		m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTextDelta, Turn: 1, Text: answer[i:end]}}})
		m.Update(frameMsg{id: m.frameID})
		shot()
		i = end
		switch n % 23 {
		case 3:
			typeText(m, "draft")
			press(m, keyShiftE)
			typeText(m, "more")
			shot()
		case 7:
			press(m, keyPgUp)
			shot()
			m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
			shot()
		case 9:
			m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelUp})
			shot()
		case 11:
			for range 20 {
				m.Update(tea.MouseWheelMsg{Button: tea.MouseWheelDown})
			}
			shot()
		case 13:
			call := &agent.Call{ID: fmt.Sprintf("c%d", n), Name: "run_command", Args: json.RawMessage(`{"command":"ls --color"}`)}
			events(m, agent.Event{Kind: agent.EventToolCallReady, Turn: 1, Call: call})
			events(m, agent.Event{Kind: agent.EventToolRunning, Turn: 1, Call: call})
			shot()
			events(m, agent.Event{Kind: agent.EventToolFinished, Turn: 1, Call: call, Result: &agent.ToolResult{Status: tools.StatusOK,
				Output: "\x1b[1;34mdir\x1b[0m\tfile\t漢字.txt\n\x1b[38;2;255;0;0mred\x1b[m 🙂 e\u0301\r\nline\x1b]0;title\x07 end   ", Summary: "3 lines"}})
			shot()
		case 17:
			for range 10 {
				press(m, tea.KeyPressMsg{Code: tea.KeyBackspace})
			}
			shot()
		}
	}
	m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTurnFinished, Turn: 1, Finish: &agent.Finish{Reason: agent.FinishDone}}}})
	shot()
	return screens
}

// TestHardScrollHostileModel streams a hostile answer through the real
// model, light and dark, and checks that a terminal shows the same cells
// after every frame whether drawn by rows (the terminal scrolling) or by
// Bubble Tea's flush.
func TestHardScrollHostileModel(t *testing.T) {
	t.Parallel()
	for _, size := range [][2]int{{120, 40}, {80, 24}, {60, 15}} {
		for _, theme := range []string{"dark", "light"} {
			for _, profile := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256, colorprofile.ANSI} {
				t.Run(fmt.Sprintf("%dx%d/%s/%s", size[0], size[1], theme, profile), func(t *testing.T) {
					t.Parallel()
					w, h := size[0], size[1]
					var views []tea.View
					for i, s := range hostileScreens(t, w, h, theme) {
						v := tea.NewView(s)
						v.AltScreen = true
						v.Cursor = tea.NewCursor(2+i%5, h-4)
						views = append(views, v)
					}
					rows, rowEnds, n, scrolls, painted := runViews(t, w, h, views, profile, true)
					whole, wholeEnds, _, _, _ := runViews(t, w, h, views, profile, false)
					t.Logf("%d of %d frames by rows, %d scrolled, %d rows painted", n, len(views), scrolls, painted)
					compareScreens(t, w, h, views, rows, whole, rowEnds, wholeEnds)
				})
			}
		}
	}
}

// TestDumpHostileStreams writes what reaches the terminal for the hostile
// model's frames, by rows and by the flush, with where each frame ends, to
// $TERN_SCREEN_DUMP (skipped without it), for replaying in a real terminal
// frame by frame (a tmux script compares the panes after every frame).
func TestDumpHostileStreams(t *testing.T) {
	dir := os.Getenv("TERN_SCREEN_DUMP")
	if dir == "" {
		t.Skip("TERN_SCREEN_DUMP not set")
	}
	for _, size := range [][2]int{{120, 40}, {80, 24}, {60, 15}} {
		for _, theme := range []string{"dark", "light"} {
			for _, profile := range []colorprofile.Profile{colorprofile.TrueColor, colorprofile.ANSI256} {
				w, h := size[0], size[1]
				var views []tea.View
				for i, s := range hostileScreens(t, w, h, theme) {
					v := tea.NewView(s)
					v.AltScreen = true
					v.Cursor = tea.NewCursor(2+i%5, h-4)
					views = append(views, v)
				}
				name := fmt.Sprintf("%s/%dx%d-%s-%s", dir, w, h, theme, profile)
				// Each view whole, as a fresh paint of it: the screen a
				// terminal should show after the frame.
				var paint strings.Builder
				var pends []string
				for _, v := range views {
					paint.WriteString("\x1b[H\x1b[2J\x1b[m" + strings.ReplaceAll(v.Content, "\n", "\x1b[m\r\n"))
					pends = append(pends, strconv.Itoa(paint.Len()))
				}
				if err := os.WriteFile(name+".paint", []byte(paint.String()), 0o600); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(name+".paint.ends", []byte(strings.Join(pends, "\n")+"\n"), 0o600); err != nil {
					t.Fatal(err)
				}
				for _, byRows := range []bool{true, false} {
					out, ends, _, _, _ := runViews(t, w, h, views, profile, byRows)
					suffix := map[bool]string{true: "rows", false: "flush"}[byRows]
					var e strings.Builder
					for _, n := range ends {
						fmt.Fprintln(&e, n)
					}
					if err := os.WriteFile(name+"."+suffix, []byte(out), 0o600); err != nil {
						t.Fatal(err)
					}
					if err := os.WriteFile(name+"."+suffix+".ends", []byte(e.String()), 0o600); err != nil {
						t.Fatal(err)
					}
				}
			}
		}
	}
}
