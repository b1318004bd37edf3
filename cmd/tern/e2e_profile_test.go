package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Profiling the streaming path: tern full screen in a 120x40 tmux pane and
// `tern run` each stream a long answer at slowRate while Go's CPU profiler
// records them (TERN_CPUPROFILE). On demand only:
//
//	TERN_E2E_PROFILE=/tmp/prof go test -run TestE2EStreamProfile -v ./cmd/tern/
//
// writes /tmp/prof/tui.prof and /tmp/prof/run.prof; read them with
// go tool pprof -top /tmp/prof/tui.prof. TERN_E2E_PROFILE_SECONDS sets the
// stream's length (30 by default); TERN_E2E_PROFILE_KEYS=1 types a key every
// 150 ms into the interface while it streams.

// profileScript answers "long N" with a Markdown answer of N KB at slowRate,
// in chunkSize pieces, and reports when the stream ended.
func profileScript(done chan<- streamed) script {
	return func(s *sse, req chatRequest, r *http.Request) {
		kb, err := strconv.Atoi(strings.TrimPrefix(strings.TrimSpace(req.lastUser()), "long "))
		if err != nil {
			kb = 1
		}
		answer := benchAnswer(kb<<10, "END-OF-LONG-ANSWER")
		var events []string
		for i := 0; i < len(answer); i += chunkSize {
			d, err := json.Marshal(map[string]string{"content": answer[i:min(i+chunkSize, len(answer))]})
			if err != nil {
				panic(err)
			}
			events = append(events, chunk(string(d), ""))
		}
		events = append(events, chunk(`{}`, "stop"), usageChunk(2000, len(answer)/4, 0), "data: [DONE]\n\n")
		pause := time.Second * chunkSize / slowRate
		st := streamed{first: time.Now()}
		for i, e := range events {
			time.Sleep(time.Until(st.first.Add(time.Duration(i) * pause)))
			if r.Context().Err() != nil {
				return
			}
			s.event(e)
		}
		st.last = time.Now()
		done <- st
	}
}

func TestE2EStreamProfile(t *testing.T) {
	dir := os.Getenv("TERN_E2E_PROFILE")
	if dir == "" {
		t.Skip("profiling runs on demand: TERN_E2E_PROFILE=/tmp/prof go test -run TestE2EStreamProfile -v ./cmd/tern/")
	}
	needTmux(t)
	seconds := 30
	if s, err := strconv.Atoi(os.Getenv("TERN_E2E_PROFILE_SECONDS")); err == nil && s > 0 {
		seconds = s
	}
	kb := seconds * slowRate >> 10
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	times := make(chan streamed, 1)
	g := newSSEGateway(t, profileScript(times))
	ws := t.TempDir()
	env := append(tmuxEnv(t, g.srv.URL), "TERN_CPUPROFILE="+filepath.Join(dir, "tui.prof"))
	s := startTmux(t, env, ws, "exec cat")
	b := &bench{t: t, c: s.control()}
	_, p, _, _ := b.launch(0, ws)
	b.target = fmt.Sprintf("%s:tern0", tmuxSession)
	before := p.cpu()
	b.typed(b.target, fmt.Sprintf("long %d", kb))
	b.must("send-keys -t " + b.target + " Enter")
	var keys []time.Duration
	if os.Getenv("TERN_E2E_PROFILE_KEYS") == "1" {
		time.Sleep(500 * time.Millisecond)
		want := ""
		for i := 0; i < seconds*5; i++ {
			c := string(rune('a' + i%26))
			want += c
			w := want
			keys = append(keys, b.keystroke(b.target, c, func(scr string) bool {
				l, ok := inputLine(scr)
				return ok && strings.HasPrefix(l, w)
			}))
			time.Sleep(150 * time.Millisecond)
		}
	}
	st := <-times
	b.poll(b.target, 20*time.Millisecond, "the idle status line", idle)
	cpu := p.cpu() - before
	took := st.last.Sub(st.first)
	b.must("send-keys -t " + b.target + " C-c")
	b.must("send-keys -t " + b.target + " C-c")
	deadline := time.Now().Add(10 * time.Second)
	for {
		if _, err := os.Stat(fmt.Sprintf("/proc/%d", p.pid)); err != nil || time.Now().After(deadline) {
			break
		}
		if pd := strings.TrimSpace(b.must("display-message -p -t " + b.target + " '#{pane_dead}'")); pd == "1" {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("interface: %d KB in %v, %.3f CPU s = %.3f CPU s per second; CPU pressure %s", kb, took.Round(time.Millisecond), cpu.Seconds(), cpu.Seconds()/took.Seconds(), cpuPressure())
	if len(keys) > 0 {
		t.Logf("keystrokes while streaming (raw): median %v, max %v", median(keys), maxDuration(keys))
	}

	runEnv := append(tmuxEnv(t, g.srv.URL), "TERN_CPUPROFILE="+filepath.Join(dir, "run.prof"))
	runCPU, _ := ternRunEnv(t, runEnv, "run", fmt.Sprintf("long %d", kb))
	st = <-times
	t.Logf("tern run: %.3f CPU s = %.3f CPU s per second; CPU pressure %s", runCPU.Seconds(), runCPU.Seconds()/st.last.Sub(st.first).Seconds(), cpuPressure())
}

func maxDuration(ds []time.Duration) time.Duration {
	m := time.Duration(0)
	for _, d := range ds {
		m = max(m, d)
	}
	return m
}
