package tools

import (
	"context"
	"os"
	"syscall"
	"testing"
	"time"
)

func TestRunShellStreamsKeepStderrApart(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, command      string
		stdout, stderr     string
		output             string // for the model: both, in the order read
		holdsPipes, failed bool
	}{
		{
			name:    "apart",
			command: "echo out; sleep 0.2; echo err >&2; sleep 0.2; echo more",
			stdout:  "out\nmore\n", stderr: "err\n",
			output: "out\nerr\nmore\nexit code: 0\n",
		},
		{
			name:    "redirected into stdout",
			command: "{ echo warn >&2; } 2>&1",
			stdout:  "warn\n",
			output:  "warn\nexit code: 0\n",
		},
		{
			name:    "failing",
			command: "echo 'no such target' >&2; exit 3",
			stderr:  "no such target\n",
			output:  "no such target\nexit code: 3\n",
			failed:  true,
		},
		{
			// The daemon holds both pipes; Run must not wait for it.
			name:       "daemon holding the pipes",
			command:    "setsid sleep 30 & echo $!; sleep 0.1",
			holdsPipes: true,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			out, errs := newChunkLog(), newChunkLog()
			sh, ok := NewRunShell(shellWorkspace(t), os.Environ()).(StreamRunner)
			if !ok {
				t.Fatal("run_shell is no StreamRunner")
			}
			start := time.Now()
			res := sh.RunStreams(context.Background(), toolArgs(t, map[string]any{"command": tt.command}), out.add, errs.add)
			if took := time.Since(start); took > 3*time.Second {
				t.Errorf("RunStreams took %v", took)
			}
			if tt.holdsPipes {
				select {
				case pid := <-out.pids:
					_ = syscall.Kill(pid, syscall.SIGKILL)
				default:
					t.Error("the daemon's pid never arrived")
				}
				return
			}
			if got := out.text(); got != tt.stdout {
				t.Errorf("stdout %q, want %q", got, tt.stdout)
			}
			if got := errs.text(); got != tt.stderr {
				t.Errorf("stderr %q, want %q", got, tt.stderr)
			}
			if res.Output != tt.output {
				t.Errorf("output %q, want %q", res.Output, tt.output)
			}
			if (res.ExitCode != 0) != tt.failed {
				t.Errorf("exit code %d", res.ExitCode)
			}
		})
	}
}
