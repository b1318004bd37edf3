package app

import (
	"errors"
	"fmt"
	"iter"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/session"
)

// ResumeMode says which session log a front end writes to.
type ResumeMode int

const (
	// ResumeNone starts a new session.
	ResumeNone ResumeMode = iota + 1
	// ResumeLatest continues the newest session of the workspace.
	ResumeLatest
	// ResumeID continues the session whose id starts with Choice.ID.
	ResumeID
	// ResumePick starts a new session and lets the user pick one to
	// continue (tern --resume without an id); the session chosen replaces
	// the new one.
	ResumePick
)

// Choice is what the user asked for: a new session, or one to continue,
// possibly as a fork.
type Choice struct {
	Mode ResumeMode
	ID   string
	Fork bool
}

// Saved is a recorded session read back for continuing it.
type Saved struct {
	log   *session.Session
	state session.State
}

// ID is the saved session's id.
func (s *Saved) ID() string { return s.log.Header.ID }

// Messages counts the messages of its conversation.
func (s *Saved) Messages() int { return len(s.state.Messages) }

// Find finds and reads back the session the choice names, or returns nil
// for a new session. Its errors say what to do.
func Find(home, workspace string, ch Choice) (*Saved, error) {
	at, err := Locate(home, workspace, ch)
	if at == nil || err != nil {
		return nil, err
	}
	return load(at.info)
}

// Located is a recorded session found, not yet read: a front end shows
// its Preview and continues it with Session.Open, so its first frame
// does not wait for the whole log to be read.
type Located struct {
	info session.Info
	fork bool
}

// ID is the located session's id.
func (l *Located) ID() string { return l.info.ID }

// Model is the model the located session's header names (it may have
// changed since: Open restores the one it ended with).
func (l *Located) Model() string { return l.info.Model }

// Fork says the session is to be continued in a copy.
func (l *Located) Fork() bool { return l.fork }

// Preview are the events of the session's last turns, read from the end
// of its log alone (session.Preview), for the eye while Open reads it all;
// nil when the log's end cannot be previewed.
func (l *Located) Preview() []agent.Event {
	if l.info.Problem != "" {
		return nil
	}
	evs, err := session.Preview(l.info.Path)
	if err != nil {
		return nil // Open says what is wrong with the log
	}
	return evs
}

// Locate finds the session the choice names without reading it, or
// returns nil for a new session. Its errors are Find's.
func Locate(home, workspace string, ch Choice) (*Located, error) {
	var info session.Info
	var err error
	switch ch.Mode {
	case ResumeNone, ResumePick:
		return nil, nil
	case ResumeLatest:
		info, err = session.LatestLog(home, workspace)
		if errors.Is(err, session.ErrNotFound) {
			return nil, fmt.Errorf("no earlier session in %s to continue; start one without --continue", workspace)
		}
	case ResumeID:
		info, err = session.Find(home, ch.ID)
		if errors.Is(err, session.ErrNotFound) || errors.Is(err, session.ErrAmbiguous) {
			return nil, err // says which sessions to look at
		}
	}
	if err != nil {
		return nil, fmt.Errorf("find the session: %w", err)
	}
	return &Located{info: info, fork: ch.Fork}, nil
}

// load reads back a listed session: the one way a session is loaded, at
// start and when the running one switches.
func load(info session.Info) (*Saved, error) {
	if info.Problem != "" {
		return nil, fmt.Errorf("session %s cannot be read: %s", info.ID, info.Problem)
	}
	s, err := session.Load(info.Path)
	if err != nil {
		return nil, fmt.Errorf("load session %s: %w", info.ID, err)
	}
	st, err := session.Restore(s)
	if err != nil {
		return nil, fmt.Errorf("restore session %s: %w", info.ID, err)
	}
	return &Saved{log: s, state: st}, nil
}

// Replay are the saved session's events, for a front end to show its
// transcript as it was, made one at a time as they are read
// (session.State.ReplayEach).
func (s *Saved) Replay() iter.Seq[agent.Event] { return s.state.ReplayEach }
