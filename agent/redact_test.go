package agent

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ternhq/tern/tools"
)

// TestToolResultsReachTheModelRedacted reads a git configuration with the
// real read_file and runs a shell command whose output holds the same
// credentials in split pieces: neither the request to the provider, nor
// the live output, nor the result the card and the session log get holds
// them.
func TestToolResultsReachTheModelRedacted(t *testing.T) {
	t.Parallel()
	token := "ghs_" + strings.Repeat("Q7wE9rT1yU", 4)
	basic := "eC1hY2Nlc3MtdG9rZW46Z2hzX3NlY3JldA"
	config := "[remote \"origin\"]\n\turl = https://x-access-token:" + token + "@github.com/o/r\n" +
		"[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic " + basic + "\n"
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "ci"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "ci", "gitconfig"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.DefaultRegistry(ws, nil)
	shellOut := "$ git config --list\nremote.origin.url=https://x-access-token:" + token + "@github.com/o/r\n" +
		"http.https://github.com/.extraheader=AUTHORIZATION: basic " + basic + "\nAUTHORIZATION: basic abc\n"
	shell := &fakeTool{name: "run_shell", kind: tools.KindShell, schema: shellSchema,
		run: func(ctx context.Context, args json.RawMessage, output func(string)) tools.Result {
			for i := 0; i < len(shellOut); i += 5 {
				output(shellOut[i:min(i+5, len(shellOut))])
			}
			return tools.Result{Status: tools.StatusOK, Output: shellOut, Summary: "exit 0"}
		}}
	reg.Add(shell)
	h := newHarness(t, reg, func(o *Options) { o.Workspace = ws },
		calls("read_file", `{"path":"ci/gitconfig"}`, "run_shell", `{"command":"git config --list"}`),
		answer("done"))
	evs := h.turn("show the remote", reply(Decision{Kind: AllowOnce}))
	if f := finishOf(t, evs); f.Err != nil {
		t.Fatalf("turn failed: %v", f.Err)
	}
	secrets := []string{token, basic, "basic abc"}
	leaks := func(where, s string) {
		t.Helper()
		for _, sec := range secrets {
			if strings.Contains(s, sec) {
				t.Errorf("%s holds %q:\n%s", where, sec, s)
			}
		}
	}
	reqs := h.prov.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2", len(reqs))
	}
	var sent strings.Builder
	for _, m := range reqs[1].Messages {
		sent.WriteString(m.Content + "\n")
	}
	leaks("the second request", sent.String())
	for _, want := range []string{"https://x-access-token:[REDACTED password]@github.com/o/r", "extraheader = AUTHORIZATION: [REDACTED header value]", "AUTHORIZATION: basic [REDACTED credential]"} {
		if !strings.Contains(sent.String(), want) {
			t.Errorf("the second request lacks %q:\n%s", want, sent.String())
		}
	}
	var live strings.Builder
	for _, ev := range eventsOf(evs, EventToolOutput) {
		leaks("live output", ev.Text)
		live.WriteString(ev.Text)
	}
	for _, ev := range eventsOf(evs, EventToolFinished) {
		leaks("a tool result", ev.Result.Output)
	}
	if live.String() != tools.Redact(shellOut) {
		t.Errorf("live output %q, want %q", live.String(), tools.Redact(shellOut))
	}
}
