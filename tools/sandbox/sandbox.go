// Package sandbox starts the commands run_shell runs. On Linux every
// command starts through tern's launcher: tern re-executes itself in a
// launcher mode that hardens itself (not dumpable, no inherited descriptors,
// no capabilities when root), starts the command as its child (confined
// with Landlock by a second stage of the binary when there is a policy:
// writes only under the policy's writable roots, no reads under its deny
// paths, optionally no network; the launcher stays outside that domain, so
// the command cannot signal it) and, as a
// child subreaper, kills every process the command left behind when it
// ends, is cancelled or times out, or when tern dies. Elsewhere, or where
// the kernel lacks Landlock, Available says why commands cannot be
// confined, and they run unconfined, guarded by approvals alone.
package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync/atomic"
)

// Marker is the hidden first argument that starts tern's launcher mode.
const Marker = "__tern_sandbox"

// confineMarker is the hidden first argument of the launcher's second
// stage, which confines itself and becomes the command.
const confineMarker = "__tern_confine"

// EnvPolicy is the environment variable carrying the launch (JSON: the
// policy, if any) from Wrap or Supervise to the launcher; the launcher
// removes it before the command starts.
const EnvPolicy = "TERN_SANDBOX_POLICY"

// launcherExe is the program Wrap starts: the running binary itself, which
// stays the same file even if the one on disk is replaced meanwhile.
const launcherExe = "/proc/self/exe"

// exitLauncherFailed is the launcher's exit status when it cannot confine
// or start the command; shells use 126 for "found but could not run".
const exitLauncherFailed = 126

// Policy says what a confined command may do. Paths are absolute.
type Policy struct {
	// Writable are the roots under which the command may create, change
	// and remove files; everything else is read-only.
	Writable []string `json:"writable"`
	// DenyRead are files and directories the command may not read (nor
	// write); everything else may be read.
	DenyRead []string `json:"deny_read"`
	// NoNetwork denies TCP connect and bind (Landlock ABI 4 and later), UDP
	// (ABI 10) and connections to UNIX sockets of processes outside the
	// sandbox (abstract ones from ABI 6, path names from ABI 9).
	NoNetwork bool `json:"no_network"`
	// Caches are writable like Writable: the build tools' caches. The
	// launcher creates those that do not exist yet (mode 0700, missing
	// parents too) before it confines itself, so the first build on a fresh
	// machine can write them.
	Caches []string `json:"caches,omitempty"`
	// ReadOnly are files and directories the command may read but not
	// change, whatever the other rules say: the launcher bind-mounts each
	// read-only onto itself in a mount namespace of its own before it
	// confines itself, where it may (it holds CAP_SYS_ADMIN: tern runs as
	// root); elsewhere they are left as they are. Paths that do not exist
	// are skipped.
	ReadOnly []string `json:"read_only,omitempty"`
}

// launchSpec is what the launcher gets in EnvPolicy.
type launchSpec struct {
	// Policy confines the command; nil runs it unconfined (still hardened
	// and supervised).
	Policy *Policy `json:"policy,omitempty"`
	// ReadOnly are paths bound read-only for an unconfined command, as
	// Policy.ReadOnly is for a confined one.
	ReadOnly []string `json:"read_only,omitempty"`
}

// readOnly returns every path the launch binds read-only.
func (s launchSpec) readOnly() []string {
	if s.Policy == nil {
		return s.ReadOnly
	}
	return append(append([]string(nil), s.ReadOnly...), s.Policy.ReadOnly...)
}

// writableRoots returns the roots a confined command may write under
// (none for an unconfined one, which the launcher cannot bound).
func (s launchSpec) writableRoots() []string {
	if s.Policy == nil {
		return nil
	}
	return unmovedPaths(append(append([]string(nil), s.Policy.Writable...), s.Policy.Caches...))
}

// installed is set once MaybeRunLauncher has returned in this process: the
// running binary can serve as the launcher. A program (or test binary)
// that never called it would run its own main instead of the launcher.
var installed atomic.Bool

// Wrap rewrites cmd, which must not have started, so that it runs through
// the launcher under p: the launcher is the running binary started with
// Marker, the command's path and arguments follow, and the policy travels
// in EnvPolicy. The program that runs it must call MaybeRunLauncher first
// thing in main (or TestMain). Wrap fails where Landlock is unavailable.
func Wrap(cmd *exec.Cmd, p Policy) error {
	if _, ok, why := Available(); !ok {
		return fmt.Errorf("sandbox: %s", why)
	}
	for _, list := range [][]string{p.Writable, p.DenyRead, p.Caches, p.ReadOnly} {
		for _, path := range list {
			if !strings.HasPrefix(path, "/") {
				return fmt.Errorf("sandbox: policy path %q is not absolute", path)
			}
		}
	}
	return wrap(cmd, launchSpec{Policy: &p})
}

// Supervise rewrites cmd, which must not have started, so that it runs
// through the launcher without Landlock: hardened and supervised (nothing
// it starts outlives it, or the process that started it) but not confined;
// readOnly are bound read-only like Policy.ReadOnly. It fails where there
// is no launcher: on systems other than Linux, and in programs that did
// not call MaybeRunLauncher.
func Supervise(cmd *exec.Cmd, readOnly []string) error {
	if !Supervised() {
		return errors.New("sandbox: no launcher to supervise commands with here")
	}
	for _, path := range readOnly {
		if !strings.HasPrefix(path, "/") {
			return fmt.Errorf("sandbox: read-only path %q is not absolute", path)
		}
	}
	return wrap(cmd, launchSpec{ReadOnly: readOnly})
}

// Supervised reports whether commands can start through the launcher here:
// on Linux, in a program that called MaybeRunLauncher.
func Supervised() bool { return supervisorOS && installed.Load() }

// wrap rewrites cmd to start the launcher with spec.
func wrap(cmd *exec.Cmd, spec launchSpec) error {
	if cmd.Err != nil {
		return cmd.Err
	}
	if cmd.Path == "" {
		return errors.New("sandbox: the command has no path")
	}
	if !installed.Load() {
		return errors.New("sandbox: this program cannot serve as the launcher: it must call sandbox.MaybeRunLauncher first thing in main")
	}
	data, err := json.Marshal(spec)
	if err != nil {
		return fmt.Errorf("sandbox: encode the policy: %w", err)
	}
	env := cmd.Env
	if env == nil {
		env = os.Environ()
	}
	env = append(withoutVar(env, EnvPolicy), EnvPolicy+"="+string(data))
	args := make([]string, 0, len(cmd.Args)+3)
	args = append(args, "tern-sandbox", Marker, cmd.Path)
	args = append(args, cmd.Args...)
	cmd.Path, cmd.Args, cmd.Env = launcherExe, args, env
	setParentDeathSignal(cmd)
	return nil
}

// MaybeRunLauncher runs the launcher when the process was started by Wrap
// or Supervise (its first argument is Marker): it hardens and, with a
// policy, confines itself, runs the command to its end and exits with the
// command's status, so it never returns then; when it cannot start the
// command, it prints why on stderr and exits with status 126. Otherwise it
// returns at once, and the program can start commands through the
// launcher. Call it first thing in main, and in TestMain of tests that run
// commands through run_shell.
func MaybeRunLauncher() {
	if len(os.Args) >= 2 && os.Args[1] == confineMarker {
		err := confine(os.Args[2:], os.Environ())
		_, _ = fmt.Fprintf(os.Stderr, "tern sandbox: %v\n(to run commands without the sandbox, start tern with --sandbox off)\n", err)
		os.Exit(exitLauncherFailed)
	}
	if len(os.Args) < 2 || os.Args[1] != Marker {
		installed.Store(true)
		return
	}
	code, err := launch(os.Args[2:], os.Environ())
	if err != nil {
		_, _ = fmt.Fprintf(os.Stderr, "tern sandbox: %v\n(to run commands without the sandbox, start tern with --sandbox off)\n", err)
		os.Exit(exitLauncherFailed)
	}
	os.Exit(code)
}

// decodeLaunch splits the launcher's arguments and environment into the
// command to start, its environment (without EnvPolicy) and the launch.
func decodeLaunch(args, env []string) (path string, argv, cmdEnv []string, spec launchSpec, err error) {
	if len(args) < 2 {
		return "", nil, nil, launchSpec{}, errors.New("launcher: no command given")
	}
	raw, ok := lookupVar(env, EnvPolicy)
	if !ok {
		return "", nil, nil, launchSpec{}, fmt.Errorf("launcher: %s is not set", EnvPolicy)
	}
	if err := json.Unmarshal([]byte(raw), &spec); err != nil {
		return "", nil, nil, launchSpec{}, fmt.Errorf("launcher: decode %s: %w", EnvPolicy, err)
	}
	return args[0], args[1:], withoutVar(env, EnvPolicy), spec, nil
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

// lookupVar returns the value of the last entry for name in env.
func lookupVar(env []string, name string) (string, bool) {
	for i := len(env) - 1; i >= 0; i-- {
		if n, v, ok := strings.Cut(env[i], "="); ok && n == name {
			return v, true
		}
	}
	return "", false
}
