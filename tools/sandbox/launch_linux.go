//go:build linux

package sandbox

import (
	"errors"
	"fmt"
	"syscall"

	"github.com/landlock-lsm/go-landlock/landlock"
	ll "github.com/landlock-lsm/go-landlock/landlock/syscall"
)

// launch confines the process under the policy in env and executes the
// command in args (path, then argv); it returns only on failure.
func launch(args, env []string) error {
	path, argv, cmdEnv, p, err := decodeLaunch(args, env)
	if err != nil {
		return err
	}
	abi, ok, why := Available()
	if !ok {
		return errors.New(why)
	}
	if err := restrict(p, abi); err != nil {
		return fmt.Errorf("could not confine the command: %w", err)
	}
	err = syscall.Exec(path, argv, cmdEnv)
	return fmt.Errorf("could not start %s: %w", path, err)
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
