package approval

import (
	"fmt"
	"strings"
)

// Policy is the approval policy: which tool calls run without asking.
type Policy int

// The policies; the set is closed.
const (
	// PolicyAsk asks before edits, writes and shell commands (the default).
	PolicyAsk Policy = iota + 1
	// PolicyAutoEdit lets edits and writes inside the workspace proceed; shell commands ask.
	PolicyAutoEdit
	// PolicyFullAuto asks for nothing but the always-ask commands.
	PolicyFullAuto
	// PolicyReadOnly refuses edits, writes and shell commands without asking.
	PolicyReadOnly
)

// policyNames lists the names in the order users see them.
var policyNames = []string{"ask", "auto-edit", "full-auto", "read-only"}

// String gives the name used by --approval and the config.
func (p Policy) String() string {
	switch p {
	case PolicyAsk:
		return "ask"
	case PolicyAutoEdit:
		return "auto-edit"
	case PolicyFullAuto:
		return "full-auto"
	case PolicyReadOnly:
		return "read-only"
	}
	return fmt.Sprintf("policy(%d)", int(p))
}

// ParsePolicy reads a policy name as given to --approval or in the config.
func ParsePolicy(s string) (Policy, error) {
	switch s {
	case "ask":
		return PolicyAsk, nil
	case "auto-edit":
		return PolicyAutoEdit, nil
	case "full-auto":
		return PolicyFullAuto, nil
	case "read-only":
		return PolicyReadOnly, nil
	}
	return 0, fmt.Errorf("unknown approval policy %q: use one of %s", s, strings.Join(policyNames, ", "))
}

// Valid reports whether p is one of the four policies.
func (p Policy) Valid() bool {
	switch p {
	case PolicyAsk, PolicyAutoEdit, PolicyFullAuto, PolicyReadOnly:
		return true
	}
	return false
}
