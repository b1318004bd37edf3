package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Runner runs the configured hooks in a workspace.
type Runner struct {
	hooks []Hook
	dir   string
}

// New returns a runner of hooks whose commands run in dir.
func New(hooks []Hook, dir string) *Runner {
	return &Runner{hooks: append([]Hook(nil), hooks...), dir: dir}
}

// Hooks are the configured hooks, in order.
func (r *Runner) Hooks() []Hook {
	if r == nil {
		return nil
	}
	return append([]Hook(nil), r.hooks...)
}

// Has reports whether any hook runs at ev.
func (r *Runner) Has(ev Event) bool {
	if r == nil {
		return false
	}
	for _, h := range r.hooks {
		if h.Event == ev {
			return true
		}
	}
	return false
}

// Run runs the hooks matching in, in their configured order, and reports
// each run. On before_tool and prompt it stops at the first that blocks.
// in.Workspace is filled in when empty.
func (r *Runner) Run(ctx context.Context, in Input) []Run {
	if r == nil {
		return nil
	}
	if in.Workspace == "" {
		in.Workspace = r.dir
	}
	if in.Result != nil {
		res := *in.Result
		res.Output = capText(res.Output)
		in.Result = &res
	}
	payload, err := json.Marshal(in)
	if err != nil {
		return []Run{{Event: in.Event, Exit: -1, Err: fmt.Errorf("encode the hook input: %w", err)}}
	}
	var out []Run
	for _, h := range r.hooks {
		if !h.matches(in) {
			continue
		}
		run := r.runOne(ctx, h, payload)
		run.Event = in.Event
		if in.Tool != nil {
			run.Tool = in.Tool.Name
		}
		out = append(out, run)
		if run.Blocked() {
			break
		}
	}
	return out
}

// runOne runs a hook's command with sh -c, stdin the input, killed with
// its process group at the timeout or when ctx ends.
func (r *Runner) runOne(ctx context.Context, h Hook, payload []byte) Run {
	run := Run{Hook: h, Exit: -1}
	ctx, cancel := context.WithTimeout(ctx, h.timeout())
	defer cancel()
	cmd := exec.CommandContext(ctx, "/bin/sh", "-c", h.Command)
	cmd.Dir = r.dir
	cmd.Env = append(os.Environ(), "TERN_HOOK_EVENT="+string(h.Event))
	cmd.Stdin = bytes.NewReader(payload)
	var stdout, stderr cappedBuffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	setGroup(cmd)
	cmd.WaitDelay = time.Second
	start := time.Now()
	err := cmd.Run()
	run.Duration = time.Since(start)
	run.Stdout, run.Stderr = stdout.String(), stderr.String()
	var exit *exec.ExitError
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		run.TimedOut = true
	case ctx.Err() != nil:
		run.Err = ctx.Err()
	case errors.As(err, &exit):
		run.Exit = exit.ExitCode() // -1 when a signal ended it: a crash
		if run.Exit < 0 {
			run.Err = fmt.Errorf("ended by %v", exit.ProcessState)
		}
	case err != nil:
		run.Err = err
	default:
		run.Exit = 0
	}
	return run
}

// cappedBuffer keeps the first OutputCap bytes written to it.
type cappedBuffer struct {
	buf       bytes.Buffer
	truncated bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	room := max(OutputCap-b.buf.Len(), 0)
	if len(p) > room {
		b.truncated = true
		b.buf.Write(p[:room])
		return len(p), nil
	}
	b.buf.Write(p)
	return len(p), nil
}

func (b *cappedBuffer) String() string {
	s := strings.ToValidUTF8(b.buf.String(), "\uFFFD")
	if b.truncated {
		s += "\n[hook output cut at 8 KiB]"
	}
	return strings.TrimRight(s, "\n")
}

// capText bounds a tool's output handed to a hook.
func capText(s string) string {
	if len(s) <= 4*OutputCap {
		return s
	}
	return strings.ToValidUTF8(s[:4*OutputCap], "") + "\n[cut]"
}

// firstLine is the first line of s, for a one-line warning.
func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 200 {
		s = strings.ToValidUTF8(s[:200], "") + "…"
	}
	return s
}
