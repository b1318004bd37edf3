package headless

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools"
)

// invisibleText holds every character `tern run --json` must escape: the
// C0 controls, DEL, the C1 controls, the bidi controls, the zero-width and
// other format characters, the line and paragraph separators and a tag
// character, between ordinary text.
func invisibleText() string {
	var b strings.Builder
	b.WriteString("start ")
	for r := rune(0); r < 0x20; r++ {
		b.WriteRune(r)
	}
	for r := rune(0x7f); r <= 0x9f; r++ {
		b.WriteRune(r)
	}
	for _, r := range []rune{0x00ad, 0x061c, 0x180e, 0x2028, 0x2029, 0xfeff, 0xe0001, 0xe0041} {
		b.WriteRune(r)
	}
	for _, rg := range [][2]rune{{0x200b, 0x200f}, {0x202a, 0x202e}, {0x2060, 0x206f}} {
		for r := rg[0]; r <= rg[1]; r++ {
			b.WriteRune(r)
		}
	}
	b.WriteString(" \x1b]52;c;aGk=\x07 \u009d0;title\u009c emoji 👩\u200d💻 end")
	return b.String()
}

// rawInvisible returns the first character in s that a terminal would act
// on or that reorders or hides text, other than the newlines ending JSON
// lines, or "".
func rawInvisible(s string) string {
	for i, r := range s {
		if r == '\n' {
			continue
		}
		if r < 0x20 || r == utf8.RuneError || escapedRune(r) || r == 0x7f {
			return s[i : i+utf8.RuneLen(r)]
		}
	}
	return ""
}

// TestJSONEscapesInvisibleCharacters checks that a model answer, its
// reasoning and a tool's output holding every control and formatting
// character reach the JSON Lines stream as \u escapes only, and decode to
// the text as it was.
func TestJSONEscapesInvisibleCharacters(t *testing.T) {
	t.Parallel()
	hostile := invisibleText()
	f := newFake(play(
		turnStarted("do it"),
		reasoning(hostile),
		callReady("c1", "run_shell", `{"command":"cat x\u202e \u009b2J`+"\u202e\u009b"+`"}`),
		kept("", "c1"),
		running("c1", "run_shell"),
		finished("c1", "run_shell", tools.StatusOK, hostile, 0),
		text(hostile),
		kept(hostile),
		turnFinished(agent.FinishDone, 2, nil),
	))
	_, out, _ := runFake(t, context.Background(), f, Options{JSON: true})
	if bad := rawInvisible(out); bad != "" {
		t.Errorf("the JSON stream holds %q raw:\n%q", bad, out)
	}
	found := map[string]bool{}
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		var m struct {
			Type string `json:"type"`
			Item struct {
				Type   string  `json:"type"`
				Text   *string `json:"text"`
				Output *string `json:"output"`
				Args   struct {
					Command string `json:"command"`
				} `json:"arguments"`
			} `json:"item"`
		}
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("line %q: %v", l, err)
		}
		if m.Type != TypeItemCompleted {
			continue
		}
		for _, s := range []*string{m.Item.Text, m.Item.Output} {
			if s != nil && *s == hostile {
				found[m.Item.Type] = true
			}
		}
		if m.Item.Type == ItemToolCall && m.Item.Args.Command != "cat x\u202e \u009b2J\u202e\u009b" {
			t.Errorf("tool call arguments decode to %q", m.Item.Args.Command)
		}
	}
	for _, typ := range []string{ItemAgentMessage, ItemReasoning, ItemToolCall} {
		if !found[typ] {
			t.Errorf("no %s decodes to the text as sent:\n%s", typ, out)
		}
	}
}

// TestEscapeInvisibleKeepsJSON checks the escaping on its own: the same
// value decoded, and nothing but the escaped characters changed.
func TestEscapeInvisibleKeepsJSON(t *testing.T) {
	t.Parallel()
	hostile := invisibleText()
	in, err := json.MarshalIndent(map[string]any{"a": hostile, "b": []string{"plain", "ü€😀", hostile}}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	got := EscapeInvisible(in)
	if bad := rawInvisible(string(got)); bad != "" {
		t.Errorf("escaped JSON holds %q raw: %q", bad, got)
	}
	var before, after any
	if err := json.Unmarshal(in, &before); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(got, &after); err != nil {
		t.Fatalf("escaped JSON does not decode: %v\n%s", err, got)
	}
	if b, a := before.(map[string]any), after.(map[string]any); b["a"] != a["a"] || b["b"].([]any)[2] != a["b"].([]any)[2] || a["b"].([]any)[1] != "ü€😀" {
		t.Errorf("decoded %q, want %q", a, b)
	}
	plain := []byte(`{"a":"plain ü€😀 text"}` + "\n")
	if got := EscapeInvisible(plain); string(got) != string(plain) {
		t.Errorf("plain JSON changed: %s", got)
	}
}
