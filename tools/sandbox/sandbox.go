// Package sandbox confines the commands run_shell runs. On Linux it uses
// Landlock: tern re-executes itself in a launcher mode that restricts its
// own process (writes only under the policy's writable roots, no reads under
// its deny paths, optionally no network) and then executes the command,
// which inherits the restriction with every process it starts. Elsewhere,
// or where the kernel lacks Landlock, Available says why not and commands
// run unconfined, guarded by approvals alone.
package sandbox

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// Marker is the hidden first argument that starts tern's launcher mode.
const Marker = "__tern_sandbox"

// EnvPolicy is the environment variable carrying the policy (JSON) from
// Wrap to the launcher; the launcher removes it before the command starts.
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
}

// Wrap rewrites cmd, which must not have started, so that it runs through
// the launcher under p: the launcher is the running binary started with
// Marker, the command's path and arguments follow, and the policy travels
// in EnvPolicy. The program that runs it must call MaybeRunLauncher first
// thing in main (or TestMain). Wrap fails where Landlock is unavailable.
func Wrap(cmd *exec.Cmd, p Policy) error {
	if cmd.Err != nil {
		return cmd.Err
	}
	if cmd.Path == "" {
		return errors.New("sandbox: the command has no path")
	}
	if _, ok, why := Available(); !ok {
		return fmt.Errorf("sandbox: %s", why)
	}
	for _, list := range [][]string{p.Writable, p.DenyRead} {
		for _, path := range list {
			if !strings.HasPrefix(path, "/") {
				return fmt.Errorf("sandbox: policy path %q is not absolute", path)
			}
		}
	}
	data, err := json.Marshal(p)
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
	return nil
}

// MaybeRunLauncher runs the launcher when the process was started by Wrap
// (its first argument is Marker): it confines itself and executes the
// command, so it never returns then; when it cannot, it prints why on
// stderr and exits with status 126. Otherwise it returns at once. Call it
// first thing in main, and in TestMain of tests that run wrapped commands.
func MaybeRunLauncher() {
	if len(os.Args) < 2 || os.Args[1] != Marker {
		return
	}
	err := launch(os.Args[2:], os.Environ())
	// launch returns only when it failed.
	_, _ = fmt.Fprintf(os.Stderr, "tern sandbox: %v\n(to run commands without the sandbox, start tern with --sandbox off)\n", err)
	os.Exit(exitLauncherFailed)
}

// decodeLaunch splits the launcher's arguments and environment into the
// command to execute, its environment (without EnvPolicy) and the policy.
func decodeLaunch(args, env []string) (path string, argv, cmdEnv []string, p Policy, err error) {
	if len(args) < 2 {
		return "", nil, nil, Policy{}, errors.New("launcher: no command given")
	}
	raw, ok := lookupVar(env, EnvPolicy)
	if !ok {
		return "", nil, nil, Policy{}, fmt.Errorf("launcher: %s is not set", EnvPolicy)
	}
	if err := json.Unmarshal([]byte(raw), &p); err != nil {
		return "", nil, nil, Policy{}, fmt.Errorf("launcher: decode %s: %w", EnvPolicy, err)
	}
	return args[0], args[1:], withoutVar(env, EnvPolicy), p, nil
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
