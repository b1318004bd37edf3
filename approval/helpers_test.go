package approval

import (
	"encoding/json"
	"os"

	"github.com/ternhq/tern/tools"
)

// fakeTools returns the kinds of the agent's read_file, edit_file and
// run_shell tools: a tool's kind is all the engine asks of it.
func fakeTools() (read, edit, shell tools.Kind) {
	return tools.KindRead, tools.KindEdit, tools.KindShell
}

// session stands in for the agent in the engine's tests: a Judge, the
// grants the session holds and the workspace.
type session struct {
	j      *Judge
	ws     *tools.Workspace
	grants map[string]bool
}

// newSession makes a Judge as the agent does: the three tools, the user's
// home directory unless the test names one.
func newSession(c Config) (*session, error) {
	if c.Tools == nil {
		c.Tools = []string{"read_file", "edit_file", "run_shell"}
	}
	if c.Home == "" {
		c.Home, _ = os.UserHomeDir()
	}
	j, err := New(c)
	if err != nil {
		return nil, err
	}
	return &session{j: j, ws: c.Workspace, grants: map[string]bool{}}, nil
}

// judge decides a call of a tool of the given kind under policy, with the
// session's grants.
func (s *session) judge(kind tools.Kind, name string, args json.RawMessage, policy Policy) Ruling {
	return s.j.Decide(Call{Tool: name, Kind: kind, Args: args}, policy, func(keys []string) bool {
		for _, k := range keys {
			if !s.grants[k] {
				return false
			}
		}
		return true
	})
}

// grant remembers an "allow for this session" answer.
func (s *session) grant(keys []string) {
	for _, k := range keys {
		s.grants[k] = true
	}
}
