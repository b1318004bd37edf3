package tools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/ternhq/tern/tools/sandbox"
)

// The limits of run_shell's timeout_s.
const (
	DefaultShellTimeout = 120 * time.Second
	MaxShellTimeout     = 600 * time.Second
)

// shellKillGrace is how long a process group gets between SIGTERM and SIGKILL.
const shellKillGrace = 2 * time.Second

// shellPipeGrace is how long run_shell waits, once the command's process
// group is gone, for output still held by a process that left the group
// (a daemon that called setsid) before it stops reading.
const shellPipeGrace = 500 * time.Millisecond

// shellKeep is how many bytes of output run_shell keeps at each end of a
// command's output once it overflows; the middle is counted, not kept, so a
// command printing gigabytes cannot exhaust memory.
const shellKeep = 1 << 20

// shellChunk is the size of the reads that become live output chunks.
const shellChunk = 32 << 10

// ternKeyVars are the environment variables holding tern's own API keys;
// commands the model runs never see them.
func ternKeyVar(name string) bool {
	switch name {
	case "LLM_API_KEY", "OPENAI_API_KEY":
		return true
	}
	return false
}

// FilterEnv returns env (entries "NAME=value") without tern's own API key
// variables (LLM_API_KEY and OPENAI_API_KEY), so that a command the model
// runs cannot read or leak the key tern talks to the gateway with. The
// result is never nil: a nil Cmd.Env would inherit tern's whole environment.
func FilterEnv(env []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if ternKeyVar(name) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

// shellSchema returns run_shell's parameter schema; part of the public contract.
// It is built once, when first asked for: every Specs call (the registry,
// the session header's hash, the prompt, each request) asked for it again.
var shellSchema = sync.OnceValue(func() json.RawMessage {
	return objectSchema(
		param{Name: "command", Type: "string", Required: true,
			Description: "The command to run with `bash -c`; pipes, redirections, && and multi-line scripts work. It cannot be interactive: stdin is empty (/dev/null) and there is no terminal."},
		param{Name: "timeout_s", Type: "integer", Minimum: minimum(1),
			Description: "Seconds after which the command and every process it started are killed. Default 120; at most 600 (larger values are lowered to 600)."},
		param{Name: "workdir", Type: "string",
			Description: "The directory to run in: a path relative to the workspace root, or an absolute path inside the workspace. Default: the workspace root."},
	)
})

const shellDescription = "Run a shell command with `bash -c` in the workspace (or in workdir, a directory inside it) and return its combined stdout and stderr, then a final line `exit code: N`. " +
	"Use it to build, test, run scripts, and for git. " +
	"stdin is /dev/null and there is no terminal, so commands must not wait for input (use non-interactive flags such as --yes). " +
	"The command and every process it starts are killed when the command finishes, when timeout_s passes (default 120 s, max 600 s) or when the user cancels: " +
	"background processes do not outlive the call, so do not start servers meant to keep running. " +
	"Long output keeps its beginning and end; redirect it to a file and use grep or read_file to see the rest. " +
	"Use read_file, list_files and grep rather than cat, find and grep commands to look at files."

// shellArgs are run_shell's parameters.
type shellArgs struct {
	Command  string   `json:"command"`
	TimeoutS *float64 `json:"timeout_s"`
	Workdir  string   `json:"workdir"`
}

// runShell implements run_shell.
type runShell struct {
	w   *Workspace
	env []string
	// tmp is the session's temporary directory, exported as TMPDIR ("": none).
	tmp string
	// lazyTmp, when set, makes tmp before the first command (tmpOnce), so
	// a session that runs no command makes none.
	lazyTmp lazyTempDir
	// policy confines every command when set (Landlock is available).
	policy *sandbox.Policy
	// sandboxNote explains a permission error of a confined command.
	sandboxNote string
	// readOnly are bound read-only for unconfined commands (the policy
	// holds them for confined ones).
	readOnly []string
	// ternHome is tern's home folder, whose AGENTS.md is protected.
	ternHome string
}

// ShellOptions configure run_shell beyond its workspace and environment.
type ShellOptions struct {
	// Sandbox, when set, confines every command where Landlock is
	// available: it may write only under the workspace root, TempDir and
	// Sandbox.Writable, may not read Sandbox.DenyRead, and has no network
	// with Sandbox.NoNetwork. Where Landlock is unavailable commands run
	// unconfined; sandbox.Check tells the user so.
	Sandbox *sandbox.Policy
	// TempDir, when set, is the session's temporary directory: commands get
	// it as TMPDIR, and the sandbox lets them write there.
	TempDir string
	// MakeTempDir, when set and TempDir is not, makes the session's
	// temporary directory before the first command and returns it (then
	// used as TempDir): a session that runs no command makes none. Its
	// error fails that command, and the next one tries again.
	MakeTempDir func() (string, error)
	// ReadOnly are absolute paths every command may read but not change,
	// sandbox on or off, where the launcher can bind them read-only (Linux,
	// tern running as root; see sandbox.Policy.ReadOnly). Elsewhere they
	// are left as they are.
	ReadOnly []string
	// TernHome is tern's home folder ($TERN_HOME): its AGENTS.md is one of
	// the protected paths a confined command gets read-only.
	TernHome string
}

// NewRunShell returns the run_shell tool, which runs commands with bash in
// workspace w. env is the environment to pass on (cmd/tern passes
// os.Environ()); FilterEnv removes tern's own API keys from it.
func NewRunShell(w *Workspace, env []string) Tool {
	return NewRunShellWith(w, env, ShellOptions{})
}

// NewRunShellWith returns run_shell with options: a sandbox for its
// commands and a session TMPDIR. Programs using a sandbox must call
// sandbox.MaybeRunLauncher first thing in main (and tests in TestMain):
// confined commands start through the running binary.
func NewRunShellWith(w *Workspace, env []string, opts ShellOptions) Tool {
	t := &runShell{w: w, env: FilterEnv(env), tmp: opts.TempDir, readOnly: opts.ReadOnly, ternHome: opts.TernHome}
	if t.tmp == "" && opts.MakeTempDir != nil {
		t.lazyTmp.make = opts.MakeTempDir
	}
	if opts.Sandbox != nil {
		if _, ok, _ := sandbox.Available(); ok {
			p := *opts.Sandbox
			p.Writable = append([]string{w.Root}, p.Writable...)
			p.ReadOnly = append(slices.Clone(p.ReadOnly), opts.ReadOnly...)
			if t.tmp != "" {
				p.Writable = append(p.Writable, t.tmp)
			}
			// Resolved now, before any command could replace a root with
			// a symbolic link: the launcher grants only unmoved roots. A
			// temporary directory made later is resolved when it is made,
			// before the command that gets it runs.
			p = p.Resolved()
			t.policy = &p
			t.sandboxNote = sandboxNote(p, t.tmp)
		}
	}
	return t
}

// lazyTempDir makes run_shell's temporary directory before the first
// command that needs it.
type lazyTempDir struct {
	make func() (string, error)
	mu   sync.Mutex
	// dir is the directory made, its real path (for the sandbox) and the
	// sandbox note naming it; "" until one was made.
	dir, real, note string
}

// get returns the directory, made now if it was not yet, its real path
// and the sandbox note that names it.
func (l *lazyTempDir) get(p *sandbox.Policy) (dir, real, note string, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.dir == "" {
		d, err := l.make()
		if err != nil {
			return "", "", "", err
		}
		l.dir, l.real = d, sandbox.RealPath(d)
		if p != nil {
			l.note = sandboxNote(*p, d)
		}
	}
	return l.dir, l.real, l.note, nil
}

// tempDir is the temporary directory a command gets, made first when it
// is made lazily, with the policy that lets the command write there and
// the note for a permission error (the constructor's when nothing is
// made lazily).
func (t *runShell) tempDir() (dir string, policy *sandbox.Policy, note string, err error) {
	if t.lazyTmp.make == nil {
		return t.tmp, t.policy, t.sandboxNote, nil
	}
	dir, real, note, err := t.lazyTmp.get(t.policy)
	if err != nil || t.policy == nil {
		return dir, t.policy, note, err
	}
	p := *t.policy
	p.Writable = append(slices.Clone(p.Writable), real)
	return dir, &p, note, nil
}

// RunShellName is the name the model calls run_shell by.
const RunShellName = "run_shell"

// shellGuidance is run_shell's rule in the system prompt.
const shellGuidance = "Use run_shell to build, test and run commands (bash, in the workspace, no stdin). Prefer the project's own build and test commands; do not start interactive programs or servers that never exit. Use the file tools, not the shell, to read, search and edit files."

// Spec describes run_shell to the model, with the sandbox's limits when
// commands are confined, so the model keeps its work where it may write.
func (t *runShell) Spec() Spec {
	desc := shellDescription
	if t.policy != nil {
		desc += " Commands run in a sandbox: they may write only inside the workspace, in $TMPDIR and in the build tools' caches"
		if len(t.policy.DenyRead) > 0 {
			desc += ", may not read credentials such as " + t.policy.DenyRead[0]
		}
		if t.policy.NoNetwork {
			desc += ", and have no network access"
		}
		desc += "; use $TMPDIR, not /tmp, for temporary files."
	}
	return Spec{Name: RunShellName, Guidance: shellGuidance, Description: desc, Parameters: shellSchema()}
}

// sandboxNote is what run_shell adds to the output of a confined command
// that failed with a permission error, so the model knows the cause and
// what to do instead of retrying.
func sandboxNote(p sandbox.Policy, tmp string) string {
	var b strings.Builder
	b.WriteString("note: this command ran in tern's sandbox, which allows writes only inside the workspace")
	if tmp != "" {
		b.WriteString(", $TMPDIR (" + tmp + ")")
	}
	b.WriteString(" and the toolchain caches")
	if len(p.DenyRead) > 0 {
		b.WriteString(", and refuses reads of " + strings.Join(p.DenyRead, ", "))
	}
	if p.NoNetwork {
		b.WriteString("; network access is blocked")
	}
	b.WriteString("; the files that make git or tern run code later (.git/config, .git/hooks, .husky, AGENTS.md, CLAUDE.md, .tern) " +
		"may be read-only to it: ask the user before changing them")
	b.WriteString(`. A "Permission denied", "Operation not permitted", "Read-only file system" or "Device or resource busy" above may come from it: ` +
		"keep files in the workspace or $TMPDIR; if the command truly needs more, ask the user, " +
		"who can add writable_roots in config.toml or run tern with --sandbox off.")
	return b.String()
}

// permissionError reports whether command output holds the messages a
// sandbox refusal produces.
func permissionError(s string) bool {
	s = strings.ToLower(s)
	for _, m := range []string{"permission denied", "operation not permitted", "read-only file system", "device or resource busy"} {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}

// Kind is KindShell: commands ask for approval under the default and
// auto-edit policies.
func (t *runShell) Kind() Kind { return KindShell }

// shellPlan is a validated call.
type shellPlan struct {
	command  string
	dir, rel string
	timeout  time.Duration
	// note tells the model when timeout_s was out of range.
	note string
}

// Preview shows the command and the directory it would run in.
func (t *runShell) Preview(_ context.Context, args json.RawMessage) (Preview, error) {
	p, err := t.plan(args)
	if err != nil {
		return Preview{}, err
	}
	return Preview{Title: "run " + oneLine(p.command), Command: p.command, Workdir: p.rel}, nil
}

// plan validates the call without side effects.
func (t *runShell) plan(raw json.RawMessage) (shellPlan, error) {
	var a shellArgs
	if err := decodeToolArgs(raw, &a); err != nil {
		return shellPlan{}, &toolError{short: "invalid arguments", msg: fmt.Sprintf("%v; expected {command, timeout_s?, workdir?}", err)}
	}
	if strings.TrimSpace(a.Command) == "" {
		return shellPlan{}, &toolError{short: "no command", msg: "command is required"}
	}
	p := shellPlan{command: a.Command, timeout: DefaultShellTimeout}
	if a.TimeoutS != nil {
		d := time.Duration(*a.TimeoutS * float64(time.Second))
		switch {
		case d > MaxShellTimeout || *a.TimeoutS > MaxShellTimeout.Seconds():
			p.timeout = MaxShellTimeout
			p.note = fmt.Sprintf("note: timeout_s %s is above the limit; the command ran with a timeout of %s", formatSeconds(*a.TimeoutS), formatDuration(MaxShellTimeout))
		case d < time.Second:
			p.timeout = time.Second
			p.note = fmt.Sprintf("note: timeout_s %s is below the minimum; the command ran with a timeout of 1s", formatSeconds(*a.TimeoutS))
		default:
			p.timeout = d
		}
	}
	abs, rel, err := t.w.Resolve(a.Workdir)
	if err != nil {
		return shellPlan{}, &toolError{short: "refused", msg: "workdir: " + err.Error()}
	}
	fi, err := os.Stat(abs)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return shellPlan{}, &toolError{short: "no such directory", msg: fmt.Sprintf("workdir %s does not exist", displayPath(rel))}
	case err != nil:
		return shellPlan{}, fmt.Errorf("workdir %s: %w", displayPath(rel), err)
	case !fi.IsDir():
		return shellPlan{}, &toolError{short: "not a directory", msg: fmt.Sprintf("workdir %s is not a directory", displayPath(rel))}
	}
	p.dir, p.rel = abs, rel
	return p, nil
}

// Run runs the command, streaming its output to output as it comes. A
// non-zero exit is information for the model, not a failed call: the result
// is StatusOK with ExitCode set. StatusError means bash could not start;
// StatusCancelled means ctx was cancelled and the process group was killed.
func (t *runShell) Run(ctx context.Context, args json.RawMessage, output func(string)) Result {
	return t.run(ctx, args, output, nil)
}

// RunStreams is Run with the command's standard error read from a pipe of
// its own and sent to stderr. The model still gets both in one text, in
// the order tern read them.
func (t *runShell) RunStreams(ctx context.Context, args json.RawMessage, stdout, stderr func(string)) Result {
	if stderr == nil {
		stderr = func(string) {}
	}
	return t.run(ctx, args, stdout, stderr)
}

// run is Run; a non-nil stderr gets standard error apart from output.
func (t *runShell) run(ctx context.Context, args json.RawMessage, output, stderr func(string)) Result {
	p, err := t.plan(args)
	if err != nil {
		return failureResult(err)
	}
	if ctx.Err() != nil {
		return Result{Status: StatusCancelled, Output: "cancelled by the user before the command started", Summary: "cancelled"}
	}
	tmp, policy, permNote, err := t.tempDir()
	if err != nil {
		return failureResult(&toolError{short: "could not start", msg: fmt.Sprintf("could not start bash: %v", err)})
	}

	// The hook's after function runs as Run returns, when the command's
	// process group is gone and its output read.
	defer t.w.beforeCommand(ctx, p.command)()

	pr, pw, err := os.Pipe()
	if err != nil {
		return failureResult(fmt.Errorf("create the output pipe: %w", err))
	}
	// Without a stderr reader both streams share one pipe, which keeps
	// their order exact.
	epr, epw := pr, pw
	if stderr != nil {
		if epr, epw, err = os.Pipe(); err != nil {
			_ = pr.Close()
			_ = pw.Close()
			return failureResult(fmt.Errorf("create the error pipe: %w", err))
		}
	}
	closePipes := func() {
		_ = pr.Close()
		_ = pw.Close()
		if epr != pr {
			_ = epr.Close()
			_ = epw.Close()
		}
	}
	cmd := exec.Command("bash", "-c", p.command)
	cmd.Dir = p.dir
	cmd.Env = append(withoutVar(t.env, "PWD"), "PWD="+p.dir)
	if tmp != "" {
		cmd.Env = append(withoutVar(cmd.Env, "TMPDIR"), "TMPDIR="+tmp)
		// A command may have removed it; the next one gets it back.
		_ = os.MkdirAll(tmp, 0o700)
	}
	cmd.Stdout = pw
	cmd.Stderr = epw
	// A session of its own gives the command its own process group, which
	// is killed as a whole, and no controlling terminal, so a program asking
	// for a password fails at once instead of stopping in the background or
	// writing over the TUI.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	// Where it can, bash starts below tern's launcher, which kills every
	// process the command leaves (also those that left its group), and
	// does so too when tern dies.
	supervised := false
	switch {
	case policy != nil:
		// The protected paths (ProtectedPaths) are listed afresh for each
		// command, since a hooks folder or an AGENTS.md may have appeared
		// since the last; the launcher binds those that exist read-only
		// where it can, and the fingerprint around the call guards them
		// everywhere else.
		pol := *policy
		if !ProtectedWritesAllowed(ctx) {
			pol.ReadOnly = append(slices.Clone(pol.ReadOnly), ProtectedPaths(t.w.Root, t.ternHome)...)
		}
		if err := sandbox.Wrap(cmd, pol); err != nil {
			closePipes()
			return failureResult(&toolError{short: "could not start", msg: fmt.Sprintf("could not start bash in the sandbox: %v", err)})
		}
		supervised = true
	case sandbox.Supervised():
		if err := sandbox.Supervise(cmd, t.readOnly); err != nil {
			closePipes()
			return failureResult(&toolError{short: "could not start", msg: fmt.Sprintf("could not start bash: %v", err)})
		}
		supervised = true
	}
	waited := make(chan error, 1)
	if err := startLocked(cmd, waited); err != nil {
		closePipes()
		return failureResult(&toolError{short: "could not start", msg: fmt.Sprintf("could not start bash: %v", err)})
	}
	// Only the command's processes hold the write ends now, so the readers
	// see end of file once they are all gone.
	_ = pw.Close()
	readers := []*os.File{pr}
	if epr != pr {
		_ = epw.Close()
		readers = append(readers, epr)
	}

	buf := newShellOutput(shellKeep)
	var reading sync.WaitGroup
	reading.Go(func() { streamOutput(pr, buf, output) })
	if epr != pr {
		reading.Go(func() { streamOutput(epr, buf, stderr) })
	}
	readDone := make(chan struct{})
	go func() {
		reading.Wait()
		close(readDone)
	}()

	pgid := cmd.Process.Pid
	timer := time.NewTimer(p.timeout)
	defer timer.Stop()
	var waitErr error
	var timedOut, cancelled bool
	select {
	case waitErr = <-waited:
	case <-timer.C:
		timedOut = true
	case <-ctx.Done():
		cancelled = true
	}
	if supervised {
		waitErr = endSupervised(cmd, pgid, waitErr, timedOut || cancelled, waited)
	} else {
		waitErr = endGroup(cmd, pgid, waitErr, timedOut || cancelled, waited)
	}

	select {
	case <-readDone:
	case <-time.After(shellPipeGrace):
		// A process that left the group still holds a pipe; stop reading.
		for _, r := range readers {
			_ = r.SetReadDeadline(time.Now())
		}
		<-readDone
	}
	for _, r := range readers {
		_ = r.Close()
	}

	code := exitCode(cmd, waitErr)
	var trailer, summary, note string
	status := StatusOK
	switch {
	case cancelled:
		status = StatusCancelled
		trailer = "cancelled by the user; process group killed"
		summary = "cancelled"
	case timedOut:
		trailer = fmt.Sprintf("timed out after %s; process group killed", formatDuration(p.timeout))
		summary = "timed out after " + formatDuration(p.timeout)
	default:
		trailer = fmt.Sprintf("exit code: %d", code)
		summary = fmt.Sprintf("exit %d", code)
		if policy != nil && code != 0 && (permissionError(string(buf.head)) || permissionError(string(buf.tail))) {
			note = permNote
			trailer = note + "\n" + trailer
		}
	}
	if p.note != "" {
		trailer = p.note + "\n" + trailer
	}
	return Result{Status: status, Output: buf.render(outputCap(t.w), trailer), Summary: summary, ExitCode: code, SandboxNote: note}
}

// launcherSlack is how long tern waits, beyond the launcher's own grace
// before SIGKILL, for the launcher to end a cancelled command before it
// kills the process group itself.
const launcherSlack = 2 * time.Second

// startLocked starts cmd from a goroutine locked to its OS thread and sends
// the result of cmd.Wait to waited. The launcher's parent-death signal
// fires when the thread that started it ends, not the process: Go ends a
// thread when a goroutine exits while locked to it, which the thread
// starting the launcher must not do while it runs. Holding the thread
// locked until the launcher is gone rules that out.
func startLocked(cmd *exec.Cmd, waited chan<- error) error {
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		waited <- cmd.Wait()
	}()
	return <-started
}

// endSupervised ends a command started below the launcher: when the
// command ended the launcher has killed what it left and exited already;
// when it timed out or was cancelled (stop), the launcher gets SIGTERM and
// does the same (SIGTERM to every process, SIGKILL after its grace). Only
// a launcher that does not end in time is killed with its group.
func endSupervised(cmd *exec.Cmd, pgid int, waitErr error, stop bool, waited <-chan error) error {
	if !stop {
		return waitErr
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-waited:
		return err
	case <-time.After(shellKillGrace + launcherSlack):
		_ = syscall.Kill(-pgid, syscall.SIGKILL)
		_ = cmd.Process.Kill()
		return <-waited
	}
}

// endGroup ends a command started without the launcher (not on Linux):
// whatever is left of its process group goes too, the leader if it timed
// out or was cancelled (stop), otherwise background processes it started.
func endGroup(cmd *exec.Cmd, pgid int, waitErr error, stop bool, waited <-chan error) error {
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	killAt := time.Now().Add(shellKillGrace)
	if stop {
		// Signal the leader directly too, in case the group signal failed.
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case waitErr = <-waited:
		case <-time.After(time.Until(killAt)):
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			_ = cmd.Process.Kill()
			waitErr = <-waited
		}
	}
	reapGroup(pgid, killAt)
	return waitErr
}

// reapGroup waits until no process of the group is left, sending SIGKILL to
// the group at killAt if some are (they got SIGTERM already).
func reapGroup(pgid int, killAt time.Time) {
	for wait := 5 * time.Millisecond; groupAlive(pgid); wait = min(2*wait, 100*time.Millisecond) {
		if !time.Now().Before(killAt) {
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			// SIGKILL cannot be ignored; give the kernel a moment, then stop
			// polling (a member we may not signal stays, there is no more to do).
			for i := 0; i < 50 && groupAlive(pgid); i++ {
				time.Sleep(10 * time.Millisecond)
			}
			return
		}
		time.Sleep(min(wait, time.Until(killAt)+time.Millisecond))
	}
}

// groupAlive reports whether a live process of the group exists. EPERM
// means a member exists that we may not signal. Zombies are members until
// their parent reaps them, and an orphan's new parent may never do so (a
// container's PID 1 often does not), so where /proc exists a group of
// zombies counts as gone.
func groupAlive(pgid int) bool {
	if err := syscall.Kill(-pgid, 0); err != nil && !errors.Is(err, syscall.EPERM) {
		return false
	}
	if live, ok := liveGroupMember(pgid); ok {
		return live
	}
	return true
}

// liveGroupMember scans /proc for a process of group pgid that is not a
// zombie; ok is false where /proc cannot be read.
func liveGroupMember(pgid int) (live, ok bool) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return false, false
	}
	for _, e := range ents {
		if !e.IsDir() || e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		state, group, ok := procState(e.Name())
		if ok && group == pgid && state != 'Z' && state != 'X' {
			return true, true
		}
	}
	return false, true
}

// procState reads a process's state letter and process group from
// /proc/<pid>/stat ("pid (comm) state ppid pgrp ..."; comm may hold spaces
// and parentheses, so fields are counted from the last ')').
func procState(pid string) (state byte, pgrp int, ok bool) {
	data, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return 0, 0, false
	}
	i := strings.LastIndexByte(string(data), ')')
	if i < 0 {
		return 0, 0, false
	}
	f := strings.Fields(string(data[i+1:]))
	if len(f) < 3 || len(f[0]) != 1 {
		return 0, 0, false
	}
	g, err := strconv.Atoi(f[2])
	if err != nil {
		return 0, 0, false
	}
	return f[0][0], g, true
}

// exitCode is the command's exit status; a command killed by a signal gets
// 128+signal, as shells report it.
func exitCode(cmd *exec.Cmd, waitErr error) int {
	st := cmd.ProcessState
	if st == nil {
		if waitErr != nil {
			return -1
		}
		return 0
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return st.ExitCode()
}

// withoutVar returns env without the variable name.
func withoutVar(env []string, name string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		if n, _, _ := strings.Cut(kv, "="); n != name {
			out = append(out, kv)
		}
	}
	return out
}

// oneLine shortens a command to its first line for titles.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return strings.TrimSpace(s[:i]) + " …"
	}
	return s
}

// formatDuration renders a timeout the way the model wrote it: "120s", "1.5s".
func formatDuration(d time.Duration) string { return formatSeconds(d.Seconds()) + "s" }

// formatSeconds renders a number of seconds without a needless fraction.
func formatSeconds(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }
