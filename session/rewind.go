package session

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/ternhq/tern/tools"
)

// Mode says what a rewind restores; the set is closed.
type Mode int

// The rewind modes.
const (
	// CodeAndConversation puts the files and the conversation back.
	CodeAndConversation Mode = iota + 1
	// ConversationOnly puts the conversation back and leaves the files.
	ConversationOnly
	// CodeOnly puts the files back and keeps the conversation.
	CodeOnly
)

// String names the mode for menus and logs.
func (m Mode) String() string {
	switch m {
	case CodeAndConversation:
		return "code and conversation"
	case ConversationOnly:
		return "conversation only"
	case CodeOnly:
		return "code only"
	}
	return fmt.Sprintf("mode(%d)", int(m))
}

func (m Mode) code() bool { return m == CodeAndConversation || m == CodeOnly }

func (m Mode) conversation() bool { return m == CodeAndConversation || m == ConversationOnly }

// ConflictChoice says what a rewind does with files changed outside tern
// since tern last wrote them; the set is closed.
type ConflictChoice int

// The choices.
const (
	// ConflictsStop changes nothing and returns the conflicts with
	// ErrConflicts, so the caller can show them and ask (the zero value
	// means this too).
	ConflictsStop ConflictChoice = iota + 1
	// ConflictsOverwrite restores the conflicting files too, losing the
	// changes made outside tern (the rewind can be undone).
	ConflictsOverwrite
	// ConflictsKeep restores every other file and leaves the conflicting
	// ones as they are.
	ConflictsKeep
)

// ErrConflicts is returned (wrapped) when a rewind found files changed
// outside tern since tern last wrote them and was told to stop.
var ErrConflicts = errors.New("some files changed outside tern since tern last wrote them")

// ErrNothingToUndo is returned (wrapped) by Undo and UndoRewind when there
// is nothing to put back.
var ErrNothingToUndo = errors.New("nothing to undo")

// Conflict is a file a rewind would overwrite although it changed outside
// tern since tern last wrote it.
type Conflict struct {
	Path string
	// Diff turns the content tern left into the content now: what
	// overwriting it would lose.
	Diff string
}

// RewindResult says what a rewind, undo or undone rewind did.
type RewindResult struct {
	// Turn is the turn the session went back to the start of.
	Turn int
	Mode Mode
	// Seq is the seq of the rewind record (0 when nothing was written).
	Seq int64
	// Restored are the files put back (re-created ones included); Removed
	// the files created after that point and now deleted; Kept the
	// conflicting files left as they were (ConflictsKeep).
	Restored, Removed, Kept []string
	// Conflicts are set with ErrConflicts; nothing was changed then.
	Conflicts []Conflict
	// Notes say what could not be restored and why.
	Notes []string
	// State is the session after the rewind: give State.Messages to
	// agent.SetHistory and render State.Entries.
	State *State

	choice ConflictChoice
}

// Rewinder puts the files and the conversation of a live session back to an
// earlier point, records that in the log, and can undo it. The agent must be
// idle while it works. It is safe for concurrent use.
type Rewinder struct {
	rec    *Recorder
	shadow ShadowSource
	root   string
	mu     sync.Mutex
}

// NewRewinder returns the rewind engine of the session rec writes (its
// checkpoints are in rec.Store), in the workspace rooted at workspace.
// shadow may be nil or give nil; what shell commands changed can then not be
// restored.
func NewRewinder(rec *Recorder, shadow ShadowSource, workspace string) *Rewinder {
	if shadow == nil {
		shadow = (*Shadow)(nil)
	}
	return &Rewinder{rec: rec, shadow: shadow, root: workspace}
}

// State flushes the log and returns the session's state as Restore
// rebuilds it: State.Turns lists what Rewind can go back to.
func (r *Rewinder) State() (*State, error) {
	s, err := r.load()
	if err != nil {
		return nil, err
	}
	st, err := Restore(s)
	if err != nil {
		return nil, err
	}
	return &st, nil
}

func (r *Rewinder) load() (*Session, error) {
	if err := r.rec.Flush(); err != nil {
		return nil, err
	}
	return Load(r.rec.Writer().Path())
}

// Rewind goes back to the start of turn (one of State.Turns): mode says
// whether the files, the conversation or both go back. Files changed in or
// after that turn by tools or shell commands are put back as they were;
// files created since are removed. A file changed outside tern since tern
// last wrote it is a conflict, handled as choice says. The files' state
// before the rewind is checkpointed, so UndoRewind can reverse it.
func (r *Rewinder) Rewind(ctx context.Context, turn int, mode Mode, choice ConflictChoice) (*RewindResult, error) {
	if !mode.code() && !mode.conversation() {
		return nil, fmt.Errorf("rewind: unknown mode %d", int(mode))
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	s, err := r.load()
	if err != nil {
		return nil, err
	}
	st, err := Restore(s)
	if err != nil {
		return nil, err
	}
	var at *TurnInfo
	var nums []string
	for i := range st.Turns {
		nums = append(nums, fmt.Sprint(st.Turns[i].Turn))
		if st.Turns[i].Turn == turn {
			at = &st.Turns[i]
		}
	}
	if at == nil {
		return nil, fmt.Errorf("rewind: turn %d is not in the conversation; the turns are %s", turn, strings.Join(nums, ", "))
	}
	res := &RewindResult{Turn: turn, Mode: mode}
	var p *plan
	if mode.code() {
		if p, err = r.plan(ctx, s, at.Seq); err != nil {
			return nil, err
		}
		if err := p.check(res, choice); err != nil {
			return res, err
		}
	}
	return r.apply(ctx, res, p, Rewind{Turn: turn, Code: mode.code(), Conversation: mode.conversation()})
}

// Undo reverts the file changes of the last turn (code only; the
// conversation stays).
func (r *Rewinder) Undo(ctx context.Context, choice ConflictChoice) (*RewindResult, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, err := r.load()
	if err != nil {
		return nil, err
	}
	var last UserMessage
	var seq int64
	for _, rec := range s.Records {
		if u, ok := rec.Body.(UserMessage); ok && u.Turn >= last.Turn {
			last, seq = u, rec.Seq
		}
	}
	if seq == 0 {
		return nil, fmt.Errorf("undo: the session has no turn yet: %w", ErrNothingToUndo)
	}
	p, err := r.plan(ctx, s, seq)
	if err != nil {
		return nil, err
	}
	if len(p.files) == 0 {
		return nil, fmt.Errorf("undo: turn %d left no file changes to revert: %w", last.Turn, ErrNothingToUndo)
	}
	res := &RewindResult{Turn: last.Turn, Mode: CodeOnly}
	if err := p.check(res, choice); err != nil {
		return res, err
	}
	return r.apply(ctx, res, p, Rewind{Turn: last.Turn, Code: true})
}

// UndoRewind reverses the last rewind (or undo): the files and the
// conversation it restored go back to how they were just before it.
func (r *Rewinder) UndoRewind(ctx context.Context, choice ConflictChoice) (*RewindResult, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, err := r.load()
	if err != nil {
		return nil, err
	}
	var last Rewind
	var seq int64
	for _, rec := range s.Records {
		if rw, ok := rec.Body.(Rewind); ok {
			last, seq = rw, rec.Seq
		}
	}
	if seq == 0 {
		return nil, fmt.Errorf("the session has not been rewound: %w", ErrNothingToUndo)
	}
	mode := CodeAndConversation
	switch {
	case !last.Conversation:
		mode = CodeOnly
	case !last.Code:
		mode = ConversationOnly
	}
	res := &RewindResult{Turn: last.Turn, Mode: mode}
	var p *plan
	if last.Code {
		if p, err = r.plan(ctx, s, seq); err != nil {
			return nil, err
		}
		if err := p.check(res, choice); err != nil {
			return res, err
		}
	}
	return r.apply(ctx, res, p, Rewind{Turn: last.Turn, Code: last.Code, Conversation: last.Conversation, Undo: seq})
}

// apply writes the rewind record, restores the planned files (checkpointing
// each as it is now), syncs, and reads the state back.
func (r *Rewinder) apply(ctx context.Context, res *RewindResult, p *plan, rec Rewind) (*RewindResult, error) {
	w := r.rec.Writer()
	seq, err := w.Append(rec)
	if err != nil {
		return nil, err
	}
	res.Seq = seq
	var firstErr error
	if p != nil {
		res.Notes = append(res.Notes, p.notes...)
		if len(p.files) == 0 {
			res.Notes = append(res.Notes, fmt.Sprintf("no file tern changed since the start of turn %d needed restoring", res.Turn))
		}
		for _, f := range p.files {
			if f.conflict && res.choice == ConflictsKeep {
				res.Kept = append(res.Kept, f.path)
				continue
			}
			if err := r.restore(ctx, seq, f, res); err != nil {
				res.Notes = append(res.Notes, err.Error())
				if firstErr == nil {
					firstErr = err
				}
			}
		}
	}
	if err := w.Sync(); err != nil {
		return res, err
	}
	st, err := r.stateLocked()
	if err != nil {
		return res, err
	}
	res.State = st
	if firstErr != nil {
		return res, fmt.Errorf("rewind: some files could not be restored: %w", firstErr)
	}
	return res, nil
}

func (r *Rewinder) stateLocked() (*State, error) {
	s, err := Load(r.rec.Writer().Path())
	if err != nil {
		return nil, err
	}
	st, err := Restore(s)
	if err != nil {
		return nil, err
	}
	return &st, nil
}

// restore puts one file back, checkpointing it before and after under the
// rewind record seq.
func (r *Rewinder) restore(ctx context.Context, seq int64, f plannedFile, res *RewindResult) error {
	if _, err := workspacePath(r.root, f.path); err != nil {
		return err
	}
	before, err := r.capture(f.path)
	if err != nil {
		return fmt.Errorf("checkpoint %s before restoring it: %w", f.path, err)
	}
	changed, err := restoreFile(ctx, r.root, f.path, f.target, r.rec.Store(), r.shadow.Shadow(ctx))
	if err != nil {
		return err
	}
	if !changed {
		return nil
	}
	after, err := r.capture(f.path)
	if err != nil {
		after = ""
	}
	if _, err := r.rec.Writer().Append(Checkpoint{Path: f.path, Hash: before, After: after, Rewind: seq}); err != nil {
		return err
	}
	if f.target.kind == versionAbsent {
		res.Removed = append(res.Removed, f.path)
	} else {
		res.Restored = append(res.Restored, f.path)
	}
	return nil
}

// capture saves a workspace file (slash path rel) as it is now and returns
// its checkpoint hash: a blob, or Absent. A symlink cannot be stored; it is
// unknown ("").
func (r *Rewinder) capture(rel string) (string, error) {
	d, err := readDiskAt(r.root, rel)
	switch {
	case err != nil:
		return "", err
	case !d.exists:
		return Absent, nil
	case d.isLink || d.isDir:
		return "", nil
	}
	return r.rec.Store().Save(d.content)
}

// Changes returns every file this session changed, with its content before
// the first change and after the last one, for /diff.
func (r *Rewinder) Changes(ctx context.Context) ([]FileDiff, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, err := r.load()
	if err != nil {
		return nil, err
	}
	l, err := r.ledger(ctx, s, 0)
	if err != nil {
		return nil, err
	}
	var out []FileDiff
	for _, path := range l.order {
		cs := l.byPath[path]
		first, last := cs[0], cs[len(cs)-1]
		fd := FileDiff{Path: path}
		for _, c := range cs {
			if c.turn > 0 && !containsInt(fd.Turns, c.turn) {
				fd.Turns = append(fd.Turns, c.turn)
			}
		}
		before, bAbsent, err := r.content(ctx, first.before, "")
		if err != nil {
			return nil, fmt.Errorf("changes of %s: %w", path, err)
		}
		after, aAbsent, err := r.content(ctx, last.after, path)
		if err != nil {
			return nil, fmt.Errorf("changes of %s: %w", path, err)
		}
		if bAbsent == aAbsent && bytes.Equal(before, after) {
			continue
		}
		fd.Before, fd.After, fd.BeforeAbsent, fd.AfterAbsent = string(before), string(after), bAbsent, aAbsent
		if bytes.IndexByte(before, 0) >= 0 || bytes.IndexByte(after, 0) >= 0 {
			fd.Diff = "Binary file " + path + " changed\n"
		} else {
			fd.Diff = tools.UnifiedDiff(path, fd.Before, fd.After)
		}
		out = append(out, fd)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// FileDiff is the net change the session made to one file.
type FileDiff struct {
	Path                      string
	Before, After             string
	BeforeAbsent, AfterAbsent bool
	// Diff is the unified diff from Before to After.
	Diff string
	// Turns are the turns that changed the file.
	Turns []int
}

// content reads a version; an unknown one is read from disk at path when
// path is given.
func (r *Rewinder) content(ctx context.Context, v fileVersion, path string) ([]byte, bool, error) {
	if v.kind == versionUnknown && path != "" {
		if _, err := workspacePath(r.root, path); err != nil {
			return nil, false, err
		}
		d, err := readDiskAt(r.root, path)
		if err != nil {
			return nil, false, err
		}
		return d.content, !d.exists, nil
	}
	if v.kind == versionAbsent {
		return nil, true, nil
	}
	b, err := readVersion(ctx, v, r.rec.Store(), r.shadow.Shadow(ctx))
	return b, false, err
}

func containsInt(s []int, v int) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// change is one file change in the log.
type change struct {
	seq int64
	// epoch is the seq where the change's turn (its user message) or
	// rewind (its record) starts.
	epoch         int64
	turn          int
	path          string
	before, after fileVersion
}

// ledger is the file changes of a log from some point on, by path.
type ledger struct {
	byPath map[string][]change
	order  []string
	notes  []string
}

func (l *ledger) add(c change) {
	if _, ok := l.byPath[c.path]; !ok {
		l.order = append(l.order, c.path)
	}
	l.byPath[c.path] = append(l.byPath[c.path], c)
}

// ledger collects the file changes whose turn or rewind started at or after
// the record from (0: all), in log order. Shell commands' changes come from
// the shadow repository.
func (r *Rewinder) ledger(ctx context.Context, s *Session, from int64) (*ledger, error) {
	turnSeq := map[int]int64{}
	for _, rec := range s.Records {
		if u, ok := rec.Body.(UserMessage); ok {
			if _, seen := turnSeq[u.Turn]; !seen {
				turnSeq[u.Turn] = rec.Seq
			}
		}
	}
	epochOf := func(turn int, rewind, seq int64) int64 {
		if rewind != 0 {
			return rewind
		}
		if s, ok := turnSeq[turn]; ok {
			return s
		}
		return seq
	}
	l := &ledger{byPath: map[string][]change{}}
	noShell := map[int]bool{}
	shadow := r.shadow.Shadow(ctx)
	turn := 0
	for _, rec := range s.Records {
		switch b := rec.Body.(type) {
		case UserMessage:
			turn = b.Turn
		case ToolResult:
			// Without snapshots, say that commands ran: what they changed
			// is not known and not restored.
			if shadow == nil && b.Tool == tools.RunShellName && b.Status != StatusDenied && epochOf(turn, 0, rec.Seq) >= from {
				noShell[turn] = true
			}
		case Checkpoint:
			c := change{seq: rec.Seq, epoch: epochOf(b.Turn, b.Rewind, rec.Seq), turn: b.Turn, path: b.Path,
				before: versionOfHash(b.Hash), after: versionOfHash(b.After)}
			if c.epoch >= from {
				l.add(c)
			}
		case Snapshot:
			epoch := epochOf(b.Turn, 0, rec.Seq)
			if epoch < from {
				continue
			}
			if shadow == nil {
				noShell[b.Turn] = true
				continue
			}
			diffs, err := shadow.Diff(ctx, b.Before, b.After)
			if err != nil {
				l.notes = append(l.notes, fmt.Sprintf("what %q changed in turn %d cannot be restored: %v", b.Command, b.Turn, err))
				continue
			}
			for _, d := range diffs {
				l.add(change{seq: rec.Seq, epoch: epoch, turn: b.Turn, path: d.Path, before: versionOfGit(d.Before), after: versionOfGit(d.After)})
			}
		}
	}
	if len(noShell) > 0 {
		var turns []int
		for t := range noShell {
			turns = append(turns, t)
		}
		sort.Ints(turns)
		l.notes = append(l.notes, fmt.Sprintf("shell commands ran in turn %s; what they changed is not restored, because the workspace has no shadow snapshots (it is not a git repository, or git is not installed)",
			strings.Trim(fmt.Sprint(turns), "[]")))
	}
	return l, nil
}

// plan is what a code restore will do.
type plan struct {
	files []plannedFile
	notes []string
}

type plannedFile struct {
	path string
	// target is the version to restore; expected the one tern left.
	target, expected fileVersion
	conflict         bool
	diff             string
}

// plan works out the files to put back to how they were at the record
// from: for each file changed since, the state before its first change.
// A file whose content is not what tern last left there is a conflict.
func (r *Rewinder) plan(ctx context.Context, s *Session, from int64) (*plan, error) {
	l, err := r.ledger(ctx, s, from)
	if err != nil {
		return nil, err
	}
	p := &plan{notes: l.notes}
	sort.Strings(l.order)
	for _, path := range l.order {
		cs := l.byPath[path]
		pf := plannedFile{path: path, target: cs[0].before, expected: cs[len(cs)-1].after}
		if pf.target.kind == versionUnknown {
			p.notes = append(p.notes, fmt.Sprintf("%s cannot be restored: the log does not hold its earlier content", path))
			continue
		}
		if _, err := workspacePath(r.root, path); err != nil {
			p.notes = append(p.notes, err.Error())
			continue
		}
		d, err := readDiskAt(r.root, path)
		if err != nil {
			return nil, fmt.Errorf("rewind: read %s: %w", path, err)
		}
		if d.matches(pf.target) {
			continue
		}
		if pf.expected.kind != versionUnknown && !d.matches(pf.expected) {
			pf.conflict = true
			left, _, err := r.content(ctx, pf.expected, "")
			if err != nil {
				left = nil
			}
			pf.diff = tools.UnifiedDiff(path, string(left), string(d.content))
		}
		p.files = append(p.files, pf)
	}
	return p, nil
}

// check stops the rewind on conflicts when told to, and remembers the
// choice for apply.
func (p *plan) check(res *RewindResult, choice ConflictChoice) error {
	if choice == 0 {
		choice = ConflictsStop
	}
	res.choice = choice
	for _, f := range p.files {
		if f.conflict {
			res.Conflicts = append(res.Conflicts, Conflict{Path: f.path, Diff: f.diff})
		}
	}
	switch choice {
	case ConflictsStop:
		if len(res.Conflicts) > 0 {
			names := make([]string, len(res.Conflicts))
			for i, c := range res.Conflicts {
				names[i] = c.Path
			}
			return fmt.Errorf("rewind: %s changed outside tern since tern last wrote it; choose to overwrite or keep it: %w",
				strings.Join(names, ", "), ErrConflicts)
		}
	case ConflictsOverwrite, ConflictsKeep:
	}
	return nil
}
