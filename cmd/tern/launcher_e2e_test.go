//go:build linux

package main

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// These tests run the real binary with `tern run` against a gateway whose
// model calls run_shell once, and look at what the command could do and
// what it left behind.

// shellGateway answers the first completion with one run_shell call of the
// command it gets when the request comes, and every later one with "done";
// it keeps the tool result the model got.
type shellGateway struct {
	srv     *httptest.Server
	key     string
	command func() string
	mu      sync.Mutex
	result  string
	called  chan struct{}
	onceRun sync.Once
}

func newShellGateway(t *testing.T, key string, command func() string) *shellGateway {
	t.Helper()
	g := &shellGateway{key: key, command: command, called: make(chan struct{})}
	g.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req chatRequest
		body, err := io.ReadAll(r.Body)
		if err == nil {
			err = json.Unmarshal(body, &req)
		}
		if err != nil || r.Header.Get("Authorization") != "Bearer "+g.key {
			http.Error(w, `{"error":{"message":"bad request or key","type":"invalid_request_error"}}`, http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		s := &sse{w: w, f: w.(http.Flusher)}
		if out, ok := req.toolResult("call_1"); ok {
			g.mu.Lock()
			g.result = out
			g.mu.Unlock()
			s.text("done", 64, 0)
			s.finish("stop")
			return
		}
		g.onceRun.Do(func() { close(g.called) })
		s.toolCall("call_1", "run_shell", map[string]string{"command": g.command()})
		s.finish("tool_calls")
	}))
	t.Cleanup(g.srv.Close)
	return g
}

// toolResult is what the model got back from the command.
func (g *shellGateway) toolResult() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.result
}

// ternCmd is `tern run --approval full-auto --sandbox sandbox` in a fresh
// workspace against g, not started.
func ternCmd(t *testing.T, g *shellGateway, sandbox string) *exec.Cmd {
	return ternCmdIn(t, g, t.TempDir(), t.TempDir(), "--sandbox", sandbox, "run the command")
}

// ternCmdIn is `tern run --approval full-auto args...` in workspace ws with
// home directory home against g, not started.
func ternCmdIn(t *testing.T, g *shellGateway, ws, home string, args ...string) *exec.Cmd {
	cmd := exec.Command(ternBin, append([]string{"run", "--approval", "full-auto"}, args...)...)
	cmd.Dir = ws
	cmd.Env = testEnv(t, withHome(map[string]string{"LLM_BASE_URL": g.srv.URL + "/v1", "LLM_API_KEY": g.key, "LLM_MODEL": "e2e-model"}, home))
	return cmd
}

// uniqueSleep returns a sleep duration no other process uses, to find the
// command's processes by: "300.<random digits>" seconds.
func uniqueSleep(t *testing.T) string {
	var b [6]byte
	if _, err := rand.Read(b[:]); err != nil {
		t.Fatal(err)
	}
	n := uint64(0)
	for _, c := range b {
		n = n<<8 | uint64(c)
	}
	return fmt.Sprintf("300.%d", n)
}

// liveWithArg returns the pids of the live processes (not zombies) whose
// command line holds the argument arg.
func liveWithArg(arg string) []int {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return nil
	}
	var out []int
	for _, e := range ents {
		var pid int
		if _, err := fmt.Sscan(e.Name(), &pid); err != nil {
			continue
		}
		cmdline, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !bytes.Contains(append([]byte{0}, cmdline...), []byte("\x00"+arg+"\x00")) {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if i := bytes.LastIndexByte(stat, ')'); err == nil && i > 0 && i+2 < len(stat) && (stat[i+2] == 'Z' || stat[i+2] == 'X') {
			continue
		}
		out = append(out, pid)
	}
	return out
}

// TestE2EKillNineLeavesNoCommandProcess kills tern with SIGKILL while a
// command runs that started a process in a session of its own: within a
// second, no process of the command is left. Resumed, the session tells the
// model the call may have run partially.
func TestE2EKillNineLeavesNoCommandProcess(t *testing.T) {
	t.Parallel()
	for _, sandbox := range []string{"on", "off"} {
		t.Run("sandbox "+sandbox, func(t *testing.T) {
			t.Parallel()
			fg, bg := uniqueSleep(t), uniqueSleep(t)
			defer func() {
				for _, pid := range append(liveWithArg(fg), liveWithArg(bg)...) {
					_ = syscall.Kill(pid, syscall.SIGKILL)
				}
			}()
			g := newShellGateway(t, "sk-e2e-kill-nine", func() string {
				return fmt.Sprintf("setsid sleep %s & sleep %s; echo never", bg, fg)
			})
			ws, home := t.TempDir(), t.TempDir()
			cmd := ternCmdIn(t, g, ws, home, "--sandbox", sandbox, "run the command")
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(20 * time.Second)
			for len(liveWithArg(fg)) == 0 || len(liveWithArg(bg)) == 0 {
				if time.Now().After(deadline) {
					_ = cmd.Process.Kill()
					_ = cmd.Wait()
					t.Fatalf("the command's processes never ran; tern said:\n%s", out.String())
				}
				time.Sleep(10 * time.Millisecond)
			}
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			_ = cmd.Wait()
			killed := time.Now()
			for {
				left := append(liveWithArg(fg), liveWithArg(bg)...)
				if len(left) == 0 {
					break
				}
				if time.Since(killed) > time.Second {
					t.Fatalf("processes %v of the command are alive 1 s after kill -9 of tern", left)
				}
				time.Sleep(10 * time.Millisecond)
			}
			t.Logf("the command's processes were gone %v after kill -9", time.Since(killed).Round(time.Millisecond))

			resume := ternCmdIn(t, g, ws, home, "--sandbox", sandbox, "--continue", "carry on")
			if b, err := resume.CombinedOutput(); err != nil {
				t.Fatalf("resume: %v\n%s", err, b)
			}
			if res := g.toolResult(); !strings.Contains(res, "may have run partially: check before running it again") {
				t.Errorf("resumed, the model was told of the interrupted call:\n%s", res)
			}
		})
	}
}

// keyProbe is a command that walks its ancestors up to pid 1 and tries to
// find key (given in two halves, so the command's own text, which tern
// holds, does not contain it) in their environment and maps, and, up to
// tern (pid ternPID) inclusive, in their memory. It prints a line for each
// ancestor whose environment, maps or memory it could open, and "hits N".
func keyProbe(key string, ternPID int) string {
	half := len(key) / 2
	return fmt.Sprintf(`m='%s''%s'; hits=0; own=1; p=$PPID
while [ "$p" -gt 1 ]; do
  if cat /proc/$p/environ >/dev/null 2>&1; then echo "readable environ of $p"; fi
  n=$(tr '\0' '\n' </proc/$p/environ 2>/dev/null | grep -c -F -- "$m"); hits=$((hits+n))
  if cat /proc/$p/maps >/dev/null 2>&1; then echo "readable maps of $p"; fi
  n=$(grep -c -F -- "$m" /proc/$p/maps 2>/dev/null); hits=$((hits+${n:-0}))
  if [ $own = 1 ]; then
    if (exec 3</proc/$p/mem) 2>/dev/null; then echo "readable mem of $p"; fi
    n=$(while read -r range perms rest; do
      case $perms in r*) s=$((16#${range%%-*})); e=$((16#${range#*-}))
        dd if=/proc/$p/mem bs=4096 skip=$((s/4096)) count=$(((e-s)/4096)) 2>/dev/null;; esac
    done </proc/$p/maps 2>/dev/null | grep -c -a -F -- "$m")
    hits=$((hits+${n:-0}))
  fi
  [ "$p" = %d ] && own=0
  p=$(sed 's/.*) //' /proc/$p/stat | cut -d' ' -f2)
done
echo "hits $hits"`, key[:half], key[half:], ternPID)
}

// TestE2ECommandCannotReadTernsKey runs, as root where the tests run as
// root, a command that looks for tern's API key in the environment, maps
// and memory of every ancestor: tern and the launcher are non-dumpable and
// the command holds no capability, so it finds nothing and cannot open them.
func TestE2ECommandCannotReadTernsKey(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Log("not root: this checks non-dumpable tern and launcher only; as root it also checks the dropped capabilities")
	}
	for _, sandbox := range []string{"on", "off"} {
		t.Run("sandbox "+sandbox, func(t *testing.T) {
			t.Parallel()
			var b [12]byte
			if _, err := rand.Read(b[:]); err != nil {
				t.Fatal(err)
			}
			key := "sk-canary-" + hex.EncodeToString(b[:])
			var pid int
			var mu sync.Mutex
			g := newShellGateway(t, key, func() string {
				mu.Lock()
				defer mu.Unlock()
				return keyProbe(key, pid)
			})
			cmd := ternCmd(t, g, sandbox)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			mu.Lock()
			err := cmd.Start()
			if err == nil {
				pid = cmd.Process.Pid
			}
			mu.Unlock()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Wait(); err != nil {
				t.Fatalf("tern run: %v\n%s", err, out.String())
			}
			res := g.toolResult()
			if !strings.Contains(res, "hits ") {
				t.Fatalf("the probe did not run; the model got:\n%s\ntern said:\n%s", res, out.String())
			}
			if !strings.Contains(res, "hits 0\n") || strings.Contains(res, key) {
				t.Errorf("the command found tern's key:\n%s", res)
			}
			// The command's parent is the launcher; tern is above it.
			for _, line := range strings.Split(res, "\n") {
				if strings.HasPrefix(line, "readable ") && strings.HasSuffix(line, fmt.Sprintf(" of %d", pid)) {
					t.Errorf("the command could open tern's files: %s", line)
				}
			}
			if strings.Count(res, "readable ") > 0 {
				t.Logf("ancestors the command could read (not tern):\n%s", res)
			}
		})
	}
}

// TestE2EInheritedDescriptorNotWritable starts tern as `tern run ...
// 9>>file` would: the command cannot write through descriptor 9.
func TestE2EInheritedDescriptorNotWritable(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "bashrc")
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	g := newShellGateway(t, "sk-e2e-fd-nine", func() string {
		return "echo pwned >&9; echo pwned >>/proc/self/fd/9; ls /proc/self/fd; echo probed"
	})
	cmd := ternCmd(t, g, "off")
	// ExtraFiles[i] is descriptor 3+i in tern.
	cmd.ExtraFiles = []*os.File{nil, nil, nil, nil, nil, nil, f}
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("tern run: %v\n%s", err, out.String())
	}
	if res := g.toolResult(); !strings.Contains(res, "probed") {
		t.Fatalf("the command did not run; the model got:\n%s\ntern said:\n%s", res, out.String())
	}
	if data, err := os.ReadFile(path); err != nil || len(data) > 0 {
		t.Errorf("the command wrote through descriptor 9: %q, %v\nthe model got:\n%s", data, err, g.toolResult())
	}
}
