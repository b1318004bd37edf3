package sandbox

import "fmt"

// minNetworkABI is the first Landlock ABI version that restricts TCP.
const minNetworkABI = 4

// Status says how commands will be confined, for `tern doctor`, the notice
// of `tern run` and the interface's status line.
type Status struct {
	// Active is true when commands run under Landlock.
	Active bool
	// ABI is the kernel's Landlock ABI version (0 without Landlock).
	ABI int
	// NetworkBlocked is true when no-network is asked for and the kernel
	// can enforce it.
	NetworkBlocked bool
	// Summary says in one line what is confined, or that nothing is.
	Summary string
	// Warning is set when tern cannot do what the configuration asks (the
	// sandbox is on but Landlock is unavailable, or no-network is on but the
	// kernel cannot restrict the network); tern shows it once.
	Warning string
}

// Check returns the status for a configuration: enabled is `--sandbox on`,
// noNetwork is `--no-network`.
func Check(enabled, noNetwork bool) Status {
	abi, ok, why := Available()
	return status(enabled, noNetwork, abi, ok, why)
}

// status is Check for a given kernel.
func status(enabled, noNetwork bool, abi int, ok bool, why string) Status {
	switch {
	case !enabled:
		return Status{ABI: abi, Summary: "off (--sandbox off): shell commands run unconfined; approvals are the only guard"}
	case !ok:
		return Status{
			Summary: "unavailable: " + why + "; shell commands run unconfined and tern relies on approvals",
			Warning: "no sandbox: " + why + "; shell commands rely on approvals alone (see docs/security.md)",
		}
	}
	st := Status{Active: true, ABI: abi}
	net := "network open"
	switch {
	case noNetwork && abi >= minNetworkABI:
		st.NetworkBlocked = true
		net = "network blocked"
	case noNetwork:
		net = fmt.Sprintf("network open: --no-network needs Landlock ABI %d (Linux 6.7), this kernel has ABI %d", minNetworkABI, abi)
		st.Warning = fmt.Sprintf("--no-network has no effect: it needs Landlock ABI %d (Linux 6.7), this kernel has ABI %d", minNetworkABI, abi)
	}
	st.Summary = fmt.Sprintf("on (Landlock ABI %d): commands write only in the workspace, the session's TMPDIR, the toolchain caches and writable_roots, and cannot read the deny_read paths; %s", abi, net)
	return st
}
