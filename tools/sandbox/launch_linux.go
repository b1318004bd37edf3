//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"slices"
	"syscall"
	"time"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
	"golang.org/x/sys/unix"
)

// supervisorOS is true: Linux has the child subreaper the launcher needs.
const supervisorOS = true

// ParentDeathSignal is the signal the kernel sends the launcher when the
// thread that started it (in tern) dies: the launcher catches it and kills
// every process of the command at once before it exits. SIGKILL would end
// the launcher before it could, leaving the command's processes to init.
const ParentDeathSignal = syscall.SIGHUP

// setParentDeathSignal has the kernel send the launcher ParentDeathSignal
// when the thread starting it ends (tern died: even kill -9).
func setParentDeathSignal(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = ParentDeathSignal
}

// killGrace is how long the command's processes get between SIGTERM and
// SIGKILL when the command ends, is cancelled or times out.
const killGrace = 2 * time.Second

// launch hardens the process, confines it under the launch in env (if it
// has a policy), starts the command in args (path, then argv) as its child
// and supervises it: when the command ends, or the launcher gets SIGTERM
// (cancel, timeout) or ParentDeathSignal (tern died), every process left
// is killed. It returns the command's exit status (128+signal when a
// signal ended it), or an error when the command could not start.
func launch(args, env []string) (int, error) {
	// Signals that end the command are caught from here on, so none ends
	// the launcher before it can kill what the command started.
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, ParentDeathSignal)
	path, argv, cmdEnv, spec, err := decodeLaunch(args, env)
	if err != nil {
		return 0, err
	}
	// The command is started from this thread: its parent-death signal
	// watches this thread, which therefore must not exit before it, and it
	// inherits what is set on this thread alone (the mount namespace, the
	// bounding set, no_new_privs).
	runtime.LockOSThread()
	if err := Harden(); err != nil {
		return 0, err
	}
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return 0, fmt.Errorf("become the subreaper of the command's processes: %w", err)
	}
	// Mounts are only possible before Landlock, and need the capabilities
	// dropped below. They are a second guard: a platform that refuses them
	// (a container's seccomp or AppArmor profile) must not stop every
	// command, and tern's fingerprint of the protected paths around each
	// call still holds there.
	_ = mountReadOnly(spec.readOnly(), spec.writableRoots())
	exe, exeArgv, exeEnv := path, argv, cmdEnv
	if p := spec.Policy; p != nil {
		if _, ok, why := Available(); !ok {
			return 0, errors.New(why)
		}
		createCaches(p.Caches)
		// The launcher stays outside the command's Landlock domain: a
		// confined process may signal only processes of its own domain or
		// one nested in it, so the command can kill neither the launcher
		// (which would leave what it started to init) nor tern, while the
		// launcher can end all of it. The domain is therefore made in the
		// child, by a second instance of this program (confineMarker) that
		// confines itself and then becomes the command.
		exe = launcherExe
		exeArgv = append([]string{"tern-sandbox", confineMarker, path}, argv...)
		exeEnv = append(slices.Clone(cmdEnv), EnvPolicy+"="+policyJSON(env))
	}
	if err := dropPrivileges(); err != nil {
		return 0, err
	}
	pid, err := syscall.ForkExec(exe, exeArgv, &syscall.ProcAttr{
		Env:   exeEnv,
		Files: []uintptr{0, 1, 2},
		Sys:   &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL},
	})
	if err != nil {
		return 0, fmt.Errorf("could not start %s: %w", path, err)
	}
	return supervise(pid, sigs), nil
}

// confine is the second stage of a confined launch (started with
// confineMarker by the launcher, without capabilities and with
// no_new_privs): it confines itself under the policy and executes the
// command in args (path, then argv) in its place. It returns only when it
// cannot.
func confine(args, env []string) error {
	path, argv, cmdEnv, spec, err := decodeLaunch(args, env)
	if err != nil {
		return err
	}
	if spec.Policy == nil {
		return errors.New("launcher: no policy to confine the command with")
	}
	abi, ok, why := Available()
	if !ok {
		return errors.New(why)
	}
	if err := restrict(*spec.Policy, abi); err != nil {
		return fmt.Errorf("could not confine the command: %w", err)
	}
	if err := syscall.Exec(path, argv, cmdEnv); err != nil {
		return fmt.Errorf("could not start %s: %w", path, err)
	}
	return nil
}

// policyJSON returns the raw launch spec in env (checked by decodeLaunch).
func policyJSON(env []string) string {
	v, _ := lookupVar(env, EnvPolicy)
	return v
}

// restrict applies the policy to the calling process (all its threads);
// whatever it executes afterwards inherits the restriction.
func restrict(p Policy, abi int) error {
	pl := makePlan(p)
	rules := []landlock.Rule{
		landlock.RODirs(pl.readDirs...).IgnoreIfMissing(),
		landlock.ROFiles(pl.readFiles...).IgnoreIfMissing(),
		landlock.RWFiles(pl.writeFiles...).WithIoctlDev().IgnoreIfMissing(),
	}
	dirs := landlock.RWDirs(pl.writeDirs...).WithIoctlDev().IgnoreIfMissing()
	if abi >= 2 {
		// Moving and linking files between directories needs "refer". It
		// is only asked for where the kernel knows it: best-effort mode
		// drops the whole sandbox rather than a right it cannot grant.
		dirs = dirs.WithRefer()
	}
	rules = append(rules, dirs)
	return landlockConfig(p.NoNetwork).Restrict(rules...)
}

// landlockConfig is what the sandbox restricts, best effort down to the
// kernel's ABI: every file-system right (pathname UNIX sockets only with
// noNetwork), signals to processes outside the sandbox (so a command cannot
// kill tern or the user's other programs), and with noNetwork TCP, UDP and
// abstract UNIX sockets too.
func landlockConfig(noNetwork bool) landlock.Config {
	cfg := landlock.V11
	cfg.Scoped = ll.ScopeSignal
	if noNetwork {
		cfg.Scoped |= ll.ScopeAbstractUnixSocket
	} else {
		cfg.HandledAccessNet = 0
		cfg.HandledAccessFS &^= ll.AccessFSResolveUnix
	}
	return cfg.BestEffort()
}
