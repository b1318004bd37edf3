package app

import (
	"bytes"
	"context"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/gen"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/provider/providertest"
	"github.com/ternhq/tern/session"
	"github.com/ternhq/tern/tools"
)

// TestContinueRestoresWhatSavedDoes checks that a session continued the
// way the interface now does it (Locate, a new session, Open once the
// first frame is out: Options.Continue) is the session Find and
// Options.Saved restore: the same conversation, system prompt, model,
// effort, policy, plan mode, grants, pending revert note, turns, transcript
// and token totals, and the same next request and log records, for
// generated sessions with compactions, rewinds, pictures and forks, with
// and without flags.
func TestContinueRestoresWhatSavedDoes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		turns int
		every int
		extra bool // plan mode, grants, effort, a rewind, a picture, a revert
		fork  bool
		flags bool
	}{
		{name: "compactions", turns: 80, every: 20},
		{name: "compactions, flags", turns: 60, every: 25, flags: true},
		{name: "rewinds, plan mode, picture, revert", turns: 12, every: 5, extra: true},
		{name: "same, flags", turns: 12, every: 5, extra: true, flags: true},
		{name: "fork", turns: 30, every: 10, extra: true, fork: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			src, wsDir := t.TempDir(), t.TempDir()
			writeContinueSession(t, src, wsDir, tt.turns, tt.every, tt.extra)
			ch := Choice{Mode: ResumeLatest, Fork: tt.fork}
			var got [2]continued
			for i, later := range []bool{false, true} {
				home := t.TempDir()
				copyDir(t, src, home)
				got[i] = continueOnce(t, home, wsDir, ch, later, tt.flags)
			}
			a, b := got[0], got[1]
			va, vb := reflect.ValueOf(a.state), reflect.ValueOf(b.state)
			for i := range va.NumField() {
				if fa, fb := va.Field(i).Interface(), vb.Field(i).Interface(); !reflect.DeepEqual(fa, fb) {
					t.Errorf("%s differs:\nSaved    %+v\nContinue %+v", va.Type().Field(i).Name, fa, fb)
				}
			}
			if len(a.replay) != len(b.replay) {
				t.Fatalf("replay: %d events with Saved, %d with Continue", len(a.replay), len(b.replay))
			}
			for i := range a.replay {
				if !sameReplayed(a.replay[i], b.replay[i]) {
					t.Fatalf("replayed event %d:\nSaved    %+v\nContinue %+v", i, a.replay[i], b.replay[i])
				}
			}
			if !reflect.DeepEqual(a.request, b.request) {
				t.Errorf("the next request differs:\nSaved    %+v\nContinue %+v", a.request, b.request)
			}
			if !reflect.DeepEqual(a.written, b.written) {
				t.Errorf("records written differ:\nSaved    %+v\nContinue %+v", a.written, b.written)
			}
		})
	}
}

// continued is what a continued session holds and sends.
type continued struct {
	state struct {
		Messages                []provider.Message
		Model, Effort           string
		Policy                  agent.Policy
		Planning                bool
		Grants                  []string
		Turn                    int
		Title                   string
		Turns                   []TurnInfo
		Context                 agent.ContextBytes
		LogIsTheSavedOne, Clean bool
	}
	replay  []agent.Event
	request provider.Request
	// written are the bodies of the records after the saved ones.
	written []session.Body
}

// continueOnce continues the newest session of home one way or the other,
// runs one turn and says what it held, sent and wrote.
func continueOnce(t *testing.T, home, wsDir string, ch Choice, later, flags bool) continued {
	t.Helper()
	ctx := context.Background()
	ws, err := tools.NewWorkspace(wsDir)
	if err != nil {
		t.Fatal(err)
	}
	prov := providertest.New(providertest.Answer(provider.Usage{PromptTokens: 10, CompletionTokens: 2}, "Fine."))
	opts := Options{
		Version: "test", Provider: prov, Offline: true, Host: "offline", Workspace: ws,
		Registry: tools.DefaultRegistry(ws, nil), System: "today's system prompt",
		Model: "config-model", Policy: agent.PolicyAsk, Home: home, Fork: ch.Fork,
	}
	if flags {
		opts.Model, opts.ModelChosen = "flag-model", true
		opts.Policy, opts.PolicyChosen = agent.PolicyReadOnly, true
		opts.Effort, opts.EffortChosen = "low", true
	}
	var out continued
	var savedPath string
	if later {
		at, err := Locate(home, ws.Root, ch)
		if err != nil {
			t.Fatal(err)
		}
		savedPath = at.info.Path
		opts.Continue = at
	} else {
		saved, err := Find(home, ws.Root, ch)
		if err != nil {
			t.Fatal(err)
		}
		savedPath = saved.log.Path
		opts.Saved = saved
		for ev := range saved.Replay() {
			out.replay = append(out.replay, ev)
		}
	}
	saved, err := session.Load(savedPath)
	if err != nil {
		t.Fatal(err)
	}
	s, err := New(ctx, opts)
	if err != nil {
		t.Fatal(err)
	}
	fresh := s.log.writer.Path()
	if later {
		sw, err := s.Open(ctx, opts.Continue.ID(), ch.Fork)
		if err != nil {
			t.Fatal(err)
		}
		out.replay = slices.Collect(sw.Replay)
		_, err = os.Stat(fresh)
		out.state.Clean = os.IsNotExist(err)
	} else {
		out.state.Clean = true
	}
	st := &out.state
	st.Messages, st.Model, st.Effort = s.agent.Messages(), s.Model(), s.Effort()
	st.Policy, st.Planning, st.Grants = s.Policy(), s.Planning(), s.agent.Grants()
	st.Turn, st.Title, st.Context = s.log.recorder.Turn(), s.log.title, s.Context()
	st.LogIsTheSavedOne = s.log.writer.Path() == savedPath
	turns, err := s.Turns(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st.Turns = turns.Turns
	for i := range st.Turns {
		st.Turns[i].Time = st.Turns[i].Time.UTC()
		if ch.Fork {
			st.Turns[i].Time = time.Time{} // a fork's copies are stamped when made
		}
	}

	rctx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Run(rctx)
	}()
	if err := s.Submit("and now?"); err != nil {
		t.Fatal(err)
	}
	timeout := time.After(20 * time.Second)
	for finished := false; !finished; {
		select {
		case ev := <-s.Events():
			finished = ev.Kind == agent.EventTurnFinished
		case <-timeout:
			t.Fatal("the turn did not finish")
		}
	}
	path := s.log.writer.Path()
	stop()
	<-done
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	reqs := prov.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d requests", len(reqs))
	}
	out.request = reqs[0]
	after, err := session.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	skip := len(saved.Records)
	if ch.Fork {
		skip = 0 // a fork's copy of the records is compared whole
	}
	for _, r := range after.Records[skip:] {
		switch b := r.Body.(type) {
		case session.AssistantMessage:
			b.Stream = "" // a new id each run
			r.Body = b
		case session.Usage:
			b.FirstTokenMS, b.DurationMS = 0, 0 // this run's clock: under load the two runs differ
			r.Body = b
		case session.ToolResult:
			b.DurationMS = 0
			r.Body = b
		}
		out.written = append(out.written, r.Body)
	}
	return out
}

// writeContinueSession writes a generated session into home; with extra it
// goes on with a model and effort change, a policy change, a grant, plan
// mode, a rewind of the conversation, a prompt with a picture and a revert
// of a file that is still to be told to the model.
func writeContinueSession(t *testing.T, home, wsDir string, turns, every int, extra bool) {
	t.Helper()
	path, err := gen.Session(home, gen.SessionSpec{Turns: turns, CompactEvery: every, Seed: 3, Workspace: wsDir,
		Created: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), Title: "continued"})
	if err != nil {
		t.Fatal(err)
	}
	if !extra {
		return
	}
	var pic bytes.Buffer
	if err := png.Encode(&pic, image.NewRGBA(image.Rect(0, 0, 2, 2))); err != nil {
		t.Fatal(err)
	}
	hash, err := session.NewStore(path).Save(pic.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	w, err := session.OpenAppend(path)
	if err != nil {
		t.Fatal(err)
	}
	high := "high"
	last := turns
	for _, b := range []session.Body{
		session.ModelChange{Model: "saved-model", Effort: &high},
		session.PolicyChange{Policy: "auto-edit"},
		session.Grant{Scope: "edit"},
		session.Grant{Scope: "shell:go test"},
		session.Grant{Scope: "edit", Revoked: true},
		session.Rewind{Turn: last - 1, Conversation: true},
		session.UserMessage{Turn: last + 1, Text: "look at this", Images: []session.ImageRef{{Hash: hash, MediaType: "image/png", Name: "shot.png"}}},
		session.AssistantMessage{Text: "A blank picture."},
		session.Usage{Prompt: 900, Completion: 20, Estimated: true},
		session.PlanMode{On: true},
	} {
		if _, err := w.Append(b); err != nil {
			t.Fatal(err)
		}
	}
	seq, err := w.Append(session.Rewind{Turn: last + 1, Code: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Append(session.Checkpoint{Path: "made.txt", Hash: session.Absent, After: session.Absent, Rewind: seq}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
}

// sameReplayed compares replayed events; approval requests are answered
// channels, compared by what they asked and were told.
func sameReplayed(a, b agent.Event) bool {
	if (a.Approval == nil) != (b.Approval == nil) {
		return false
	}
	if a.Approval != nil {
		if !reflect.DeepEqual(a.Approval.Call, b.Approval.Call) || a.Decision != b.Decision {
			return false
		}
		a.Approval, b.Approval = nil, nil
	}
	return reflect.DeepEqual(a, b)
}

// copyDir copies the files under src into dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, p)
		if err != nil {
			return err
		}
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o700)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		if err := os.WriteFile(to, data, 0o600); err != nil {
			return err
		}
		return os.Chtimes(to, info.ModTime(), info.ModTime())
	})
	if err != nil {
		t.Fatal(err)
	}
}
