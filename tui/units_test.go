package tui

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

func testRC(width int) *renderCtx {
	keys := newKeyMap()
	rc := &renderCtx{width: width, now: fixedClock, spin: "⠋", keys: &keys}
	rc.setTheme(newTheme(true, false))
	return rc
}

func stripAll(lines []string) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = ansi.Strip(l)
	}
	return strings.Join(out, "\n")
}

func TestRenderDiffLineNumbers(t *testing.T) {
	t.Parallel()
	d := "--- a/x.go\n+++ b/x.go\n@@ -9,3 +9,4 @@ func f() {\n a\n-b\n+c\n+d\n e\n\\ No newline at end of file\n"
	got, hidden := renderDiff(testRC(60), d, 60, 0, false)
	want := strings.Join([]string{
		"   @@ -9,3 +9,4 @@ func f() {",
		" 9   a",
		"10 - b",
		"10 + c",
		"11 + d",
		"12   e",
		"   \\ No newline at end of file",
	}, "\n")
	if s := stripAll(got); s != want || hidden != 0 {
		t.Fatalf("got\n%s\nwant\n%s", s, want)
	}
	got, hidden = renderDiff(testRC(60), d, 60, 3, false)
	if len(got) != 3 || hidden != 4 {
		t.Fatalf("limited: %d lines, %d hidden", len(got), hidden)
	}
}

func TestRenderDiffWrapsInDialog(t *testing.T) {
	t.Parallel()
	d := "@@ -1 +1 @@\n+" + strings.Repeat("x", 50) + "\n"
	got, _ := renderDiff(testRC(30), d, 30, 0, true)
	if len(got) < 3 {
		t.Fatalf("long line not wrapped: %q", stripAll(got))
	}
	for _, l := range got {
		if w := ansi.StringWidth(l); w > 30 {
			t.Fatalf("line of %d cells", w)
		}
	}
	if n := strings.Count(stripAll(got), "x"); n != 50 {
		t.Fatalf("wrapped text lost characters: %d", n)
	}
}

func TestDiffFromArgs(t *testing.T) {
	t.Parallel()
	got := diffFromArgs("edit_file", map[string]any{"old_string": "a\nb", "new_string": "a\nc"})
	if !strings.Contains(got, "-b\n") || !strings.Contains(got, "+c\n") || strings.Contains(got, "@@") {
		t.Fatalf("edit diff %q", got)
	}
	if got := diffFromArgs("write_file", map[string]any{"content": "x\n"}); !strings.Contains(got, "+x") {
		t.Fatalf("write diff %q", got)
	}
	if got := diffFromArgs("grep", map[string]any{"pattern": "x"}); got != "" {
		t.Fatalf("grep diff %q", got)
	}
}

func TestCardMainArgument(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, args, want string }{
		{"read_file", `{"path":"a/b.go","offset":3}`, "a/b.go"},
		{"run_shell", `{"command":"go test ./...\necho done"}`, "go test ./..."},
		{"grep", `{"pattern":"TODO","path":"internal"}`, "TODO in internal"},
		{"list_files", `{}`, "."},
		{"mystery", `{"query":"x\u001b[2Jy"}`, "x⟨U+001B⟩[2Jy"},
		{"run_shell", `{"command":"rm -rf /tmp/x\u202e / \u202c#"}`, "rm -rf /tmp/x⟨U+202E⟩ / ⟨U+202C⟩#"},
		{"read_file", `{"path":"pass\u200bwd.txt"}`, "pass⟨U+200B⟩wd.txt"},
		{"read_file", `not json`, ""},
		{"task", `{"description":"Find the parser","prompt":"where is it?"}`, "Find the parser"},
		{"task", `{"description":"Run tests","prompt":"x","agent":"tester"}`, "tester: Run tests"},
	}
	for _, tc := range tests {
		c := &toolCard{name: tc.name}
		c.setArgs(json.RawMessage(tc.args))
		if c.main != tc.want {
			t.Errorf("%s %s: main %q, want %q", tc.name, tc.args, c.main, tc.want)
		}
	}
}

func TestCardStates(t *testing.T) {
	t.Parallel()
	rc := testRC(80)
	rc.now = fixedClock.Add(1500 * time.Millisecond)
	tests := []struct {
		state cardState
		setup func(c *toolCard)
		want  string
	}{
		{cardStreaming, nil, "⠋ preparing…"},
		{cardAwaiting, nil, "⏸ awaiting approval"},
		{cardRunning, func(c *toolCard) { c.start = fixedClock }, "⠋ running 1.5s"},
		{cardDone, func(c *toolCard) { c.took, c.summary = 20*time.Millisecond, "12 lines" }, "✓ 20ms · 12 lines"},
		{cardFailed, func(c *toolCard) { c.took, c.summary, c.errText = time.Second, "not found", "open x: no such file" }, "✗ 1s · not found"},
		{cardDenied, func(c *toolCard) { c.note = "denied by the rule read_file:x" }, "⊘ denied"},
		{cardCancelled, nil, "⊘ cancelled"},
	}
	for _, tc := range tests {
		c := &toolCard{name: "read_file", main: "x.go", state: tc.state}
		if tc.setup != nil {
			tc.setup(c)
		}
		got := stripAll(c.render(rc))
		if !strings.Contains(got, "→ read_file x.go  "+tc.want) {
			t.Errorf("state %d:\n%s", tc.state, got)
		}
	}
}

func TestShellCardShowsLastLines(t *testing.T) {
	t.Parallel()
	c := &toolCard{name: "run_shell", command: "make", main: "make", state: cardRunning, start: fixedClock}
	for i := range 20 {
		c.addOutput(fmt.Sprintf("step %d\n", i), false)
	}
	got := stripAll(c.render(testRC(80)))
	if !strings.Contains(got, "$ make") || !strings.Contains(got, "step 19") || strings.Contains(got, "step 14\n") || !strings.Contains(got, "15 earlier lines") {
		t.Fatalf("collapsed shell card:\n%s", got)
	}
	c.expanded = true
	if got := stripAll(c.render(testRC(80))); !strings.Contains(got, "step 0") {
		t.Fatalf("expanded shell card:\n%s", got)
	}
}

func TestCardOutputIsBounded(t *testing.T) {
	t.Parallel()
	c := &toolCard{name: "run_shell"}
	chunk := strings.Repeat("x", 1000) + "\n"
	for range 1000 {
		c.addOutput(chunk, false)
	}
	if n := c.output.Len(); n > 2*maxCardOutput {
		t.Fatalf("kept %d bytes", n)
	}
}

// tallBlock is a block of n numbered lines.
type tallBlock struct {
	cache
	name string
	n    int
}

func (b *tallBlock) cacheRef() *cache { return &b.cache }

func (b *tallBlock) render(*renderCtx) []string {
	out := make([]string, b.n)
	for i := range out {
		out[i] = fmt.Sprintf("%s-%d", b.name, i)
	}
	return out
}

func TestTranscriptAnchor(t *testing.T) {
	t.Parallel()
	rc := testRC(40)
	tr := newTranscript()
	for i := range 10 {
		tr.add(&tallBlock{name: fmt.Sprint("b", i), n: 5})
	}
	tr.ensure(rc, 8)
	if got := tr.view(8); got[0] != "b8-2" || got[7] != "b9-4" {
		t.Fatalf("bottom view %q", got)
	}
	tr.scroll(rc, 8, -4)
	if got := tr.view(8); got[0] != "b7-3" || tr.follow {
		t.Fatalf("after scrolling up 4: %q", got)
	}
	tr.add(&tallBlock{name: "new", n: 3})
	tr.ensure(rc, 8)
	if got := tr.view(8); got[0] != "b7-3" || !tr.below {
		t.Fatalf("appending moved the view: %q below=%v", got, tr.below)
	}
	tr.scroll(rc, 8, 100)
	if !tr.follow || tr.below {
		t.Fatal("scrolling to the end did not follow")
	}
	tr.home()
	tr.ensure(rc, 8)
	if got := tr.view(8); got[0] != "b0-0" {
		t.Fatalf("home: %q", got)
	}
	tr.scroll(rc, 8, -3)
	if got := tr.view(8); got[0] != "b0-0" {
		t.Fatalf("scrolled above the top: %q", got)
	}
	// Everything fits: the view is top-aligned and follows.
	small := newTranscript()
	small.add(&tallBlock{name: "s", n: 2})
	small.ensure(rc, 8)
	small.scroll(rc, 8, -1)
	if got := small.view(8); len(got) != 2 || !small.follow {
		t.Fatalf("short transcript %q", got)
	}
}

func TestTranscriptRendersOnlyVisible(t *testing.T) {
	t.Parallel()
	rc := testRC(40)
	tr := newTranscript()
	blocks := make([]*tallBlock, 50)
	for i := range blocks {
		blocks[i] = &tallBlock{name: "b", n: 4}
		tr.add(blocks[i])
	}
	tr.ensure(rc, 10)
	rendered := 0
	for _, b := range blocks {
		if b.lines != nil {
			rendered++
		}
	}
	if rendered > 3 {
		t.Fatalf("%d blocks rendered for a 10-line screen", rendered)
	}
}

func TestHistoryRoundTrip(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	path := historyPath(home)
	for _, p := range []string{"one", "two\nlines", `quote " and \`} {
		if err := writeHistory(path, "/work/a", p); err != nil {
			t.Fatal(err)
		}
	}
	got, err := readHistory(path, "/work/a")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 3 || got[1] != "two\nlines" || got[2] != `quote " and \` {
		t.Fatalf("history %q", got)
	}
	if info, err := os.Stat(path); err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("history file mode %v %v", info.Mode(), err)
	}
	if got, err := readHistory(filepath.Join(home, "none"), "/work/a"); err != nil || got != nil {
		t.Fatalf("missing file: %q %v", got, err)
	}
}

func TestHistoryPerWorkspace(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	path := historyPath(home)
	// A line from before workspaces were recorded, then prompts of two
	// workspaces interleaved, and a torn line.
	if err := os.WriteFile(path, []byte("\"from before\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, l := range []struct{ ws, prompt string }{{"/work/a", "a1"}, {"/work/b", "b1"}, {"/work/a", "a2"}, {"/work/a/sub", "sub1"}} {
		if err := writeHistory(path, l.ws, l.prompt); err != nil {
			t.Fatal(err)
		}
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = f.WriteString(`{"workspace":"/work/a","pro` + "\n")
	_ = f.Close()
	tests := []struct {
		ws   string
		want []string
	}{
		{"/work/a", []string{"from before", "a1", "a2"}},
		{"/work/b", []string{"from before", "b1"}},
		{"/work/a/sub", []string{"from before", "sub1"}},
		{"/elsewhere", []string{"from before"}},
	}
	for _, tt := range tests {
		got, err := readHistory(path, tt.ws)
		if err != nil || strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%s: history %q (%v), want %q", tt.ws, got, err, tt.want)
		}
	}
	// ↑ in a model walks its own workspace's prompts only.
	m, _ := newTestModel(t, Options{Home: home, Workspace: "/work/b"})
	step(m, m.loadHistory()())
	press(m, keyUp)
	if v := m.input.Value(); v != "b1" {
		t.Fatalf("↑ in /work/b recalled %q", v)
	}
}

func TestHistoryNavigation(t *testing.T) {
	t.Parallel()
	var h history
	h.load([]string{"a", "b"})
	if _, ok := h.next(); ok {
		t.Fatal("next without browsing")
	}
	if s, _ := h.prev("draft"); s != "b" {
		t.Fatalf("prev %q", s)
	}
	if s, _ := h.prev(""); s != "a" {
		t.Fatalf("prev %q", s)
	}
	if _, ok := h.prev(""); ok {
		t.Fatal("prev past the oldest")
	}
	h.next()
	if s, _ := h.next(); s != "draft" {
		t.Fatalf("next past the newest gave %q", s)
	}
	h.add("c")
	h.add("c")
	if len(h.entries) != 3 {
		t.Fatalf("duplicate kept: %q", h.entries)
	}
}

func TestShortPath(t *testing.T) {
	t.Parallel()
	tests := []struct {
		p, home string
		max     int
		want    string
	}{
		{"/home/u/src/tern", "/home/u", 30, "~/src/tern"},
		{"/home/user2/x", "/home/u", 30, "/home/user2/x"},
		{"/very/long/path/to/some/deeply/nested/project", "", 20, "…/nested/project"},
		{"", "/h", 10, ""},
	}
	for _, tc := range tests {
		if got := shortPath(tc.p, tc.home, tc.max); got != tc.want {
			t.Errorf("shortPath(%q) = %q, want %q", tc.p, got, tc.want)
		}
	}
}

func TestKilo(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{12: "12", 1234: "1.2k", 45678: "45k", 2_500_000: "2.5M"} {
		if got := kilo(n); got != want {
			t.Errorf("kilo(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestExplainErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		err  error
		want string
	}{
		{&provider.Error{Kind: provider.ErrAuth, Status: 401, Message: "bad key"}, "LLM_API_KEY"},
		{&provider.Error{Kind: provider.ErrRateLimited, Status: 429, RetryAfter: 2 * time.Second}, "wait 2s"},
		{&provider.Error{Kind: provider.ErrContextTooLong}, "/clear"},
		{&provider.Error{Kind: provider.ErrModelNotFound, Status: 404}, "/model"},
		{&provider.Error{Kind: provider.ErrNetwork}, "LLM_BASE_URL"},
		{fmt.Errorf("turn: %w", &provider.Error{Kind: provider.ErrServer, Status: 503}), "again"},
	}
	for _, tc := range tests {
		title, body, hint := explain(tc.err)
		if !strings.Contains(title+body+hint, tc.want) {
			t.Errorf("%v: %q / %q / %q lacks %q", tc.err, title, body, hint, tc.want)
		}
	}
	if title, body, _ := explain(errors.New("boom\x1b[2J")); title != "Error" || body != "boom" {
		t.Errorf("plain error: %q %q", title, body)
	}
}

func TestDialogFitsSmallScreens(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	startTurn(m)
	var d strings.Builder
	d.WriteString("@@ -1,60 +1,60 @@\n")
	for i := range 60 {
		d.WriteString("+line " + itoa(i) + "\n")
	}
	call := &agent.Call{ID: "w", Name: "write_file"}
	req := agent.NewApprovalRequest("r", *call, tools.KindEdit, tools.Preview{Diff: d.String()}, agent.Scope{Label: "edits inside this workspace"})
	req.Always, req.Reason = true, "it writes outside the usual places"
	events(m, agent.Event{Kind: agent.EventApprovalRequested, Call: call, Approval: req})
	for _, h := range []int{14, 20, 30, 60} {
		step(m, tea.WindowSizeMsg{Width: 80, Height: h})
		v := m.View().Content
		if n := strings.Count(v, "\n") + 1; n > h {
			t.Errorf("height %d: %d lines drawn", h, n)
		}
		if !strings.Contains(ansi.Strip(v), "Yes (y)") {
			t.Errorf("height %d: options cut off", h)
		}
	}
}

func TestEditorRoundTrip(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	typeText(m, "first draft")
	msgs := collect(m.openEditor())
	if len(msgs) != 1 {
		t.Fatalf("messages %v", msgs)
	}
	ready := msgs[0].(editorMsg)
	b, err := os.ReadFile(ready.path)
	if err != nil || string(b) != "first draft" {
		t.Fatalf("draft file %q %v", b, err)
	}
	if err := os.WriteFile(ready.path, []byte("edited\ntwice\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	stepWait(m, editorMsg{path: ready.path, exited: true}, 5*time.Second)
	if v := m.input.Value(); v != "edited\ntwice" {
		t.Fatalf("input after editing %q", v)
	}
	if _, err := os.Stat(ready.path); !os.IsNotExist(err) {
		t.Fatal("draft file left behind")
	}
	cmd := (&model{getenv: func(k string) string {
		if k == "EDITOR" {
			return "code -w"
		}
		return ""
	}}).editorCommand("/tmp/x")
	if strings.Join(cmd.Args, " ") != "code -w /tmp/x" {
		t.Fatalf("editor command %q", cmd.Args)
	}
}

// TestReferenceLinksGetAFullRender checks that an answer with reference
// links, which the streamed render leaves as written, is rendered again in
// full when it finishes, resolving them.
func TestReferenceLinksGetAFullRender(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	events(m, agent.Event{Kind: agent.EventTurnStarted}, agent.Event{Kind: agent.EventTextDelta, Text: "See [the docs][1].\n\nMore text.\n\n[1]: https://example.com/docs\n"})
	frame(m)
	// The streamed render sees the link before its definition has arrived
	// to resolve it; only the full render at the end can, which is what
	// this test is about.
	if s := screen(m); !strings.Contains(s, "[the docs][1]") {
		t.Fatalf("the streamed render resolved the reference link by itself, so this test no longer shows that the full render does:\n%s", s)
	}
	cmd := m.onEvent(agent.Event{Kind: agent.EventTurnFinished, Finish: &agent.Finish{Reason: agent.FinishDone}})
	var full bool
	for _, msg := range collectWait(cmd, 5*time.Second) {
		if fr, ok := msg.(fullRenderMsg); ok {
			full = true
			step(m, fr)
		}
	}
	if !full {
		t.Fatal("no full render for an answer with reference links")
	}
	if s := screen(m); strings.Contains(s, "[the docs][1]") || !strings.Contains(s, "example.com") {
		t.Fatalf("reference link unresolved:\n%s", s)
	}
}

func TestFlowingTextArmsTheNextFrameOnce(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTurnStarted}}})
	m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTextDelta, Text: "hel"}}}) // the answer's block appears at once
	m.Update(frameMsg{id: m.frameID})
	m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTextDelta, Text: "lo"}}})
	m.Update(frameMsg{id: m.frameID})
	if !m.frameArmed || m.frameDue.Sub(fixedClock) != m.frameDelay() {
		t.Fatalf("after a frame with streamed text the next is due in %v, want %v", m.frameDue.Sub(fixedClock), m.frameDelay())
	}
	armed := m.frameID
	m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTextDelta, Text: " world"}}})
	if m.frameID != armed {
		t.Error("text arriving after a frame armed another timer instead of waiting for the armed one")
	}
	m.Update(frameMsg{id: armed})
	if !strings.Contains(screen(m), "hello world") {
		t.Fatal("the armed frame did not render the streamed text")
	}
	m.Update(frameMsg{id: m.frameID})
	if !m.frameArmed || m.frameDue.Sub(fixedClock) != max(spinnerEvery, m.frameDelay()) {
		t.Errorf("after a frame without text the next is due in %v, want the spinner's", m.frameDue.Sub(fixedClock))
	}
}

func TestStreamingFramesSupersedeSpinnerTimer(t *testing.T) {
	t.Parallel()
	m, _ := newTestModel(t, Options{})
	m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTurnStarted}}})
	if !m.frameArmed || m.frameDue.Sub(fixedClock) != spinnerEvery {
		t.Fatalf("spinner frame due in %v", m.frameDue.Sub(fixedClock))
	}
	slow := m.frameID
	m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTextDelta, Text: "hello"}}})
	m.Update(eventsMsg{events: []agent.Event{{Kind: agent.EventTextDelta, Text: " world"}}})
	if m.frameID == slow || m.frameDue.Sub(fixedClock) != frameMin {
		t.Fatalf("streamed text waits %v for a frame", m.frameDue.Sub(fixedClock))
	}
	m.Update(frameMsg{id: slow})
	if strings.Contains(screen(m), "world") {
		t.Fatal("a superseded timer rendered a frame")
	}
	m.Update(frameMsg{id: m.frameID})
	if !strings.Contains(screen(m), "hello world") {
		t.Fatal("the frame did not render the streamed text")
	}
}

func TestRenderMemoIsRender(t *testing.T) {
	t.Parallel()
	dark, light := newTheme(true, false), newTheme(false, false)
	var r renderMemo
	for i := range 3 * memoMax {
		s := fmt.Sprintf("part %d", i%(memoMax+5))
		if got, want := r.render(1, &dark.info, s), dark.info.Render(s); got != want {
			t.Fatalf("render(%q) = %q, want %q", s, got, want)
		}
	}
	// Another theme (a new generation) never gets the old one's strings.
	if got, want := r.render(2, &light.info, "part 1"), light.info.Render("part 1"); got != want {
		t.Fatalf("after a theme change: %q, want %q", got, want)
	}
}
