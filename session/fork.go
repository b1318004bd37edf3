package session

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
)

// Fork starts a new session under home holding s's history, all of it
// (upToTurn 0) or through the end of turn upToTurn (one of the turns
// Restore lists), with h as its header: h.Parent is set to s's id, and
// fields left empty in h are taken from s's header, except ID and Created,
// which Create makes new.
// The records are copied with new seq numbers, and the checkpoint blobs they
// name are copied into the new session's folder (hard-linked when the file
// system allows), so the fork can rewind its files without its parent. It
// returns the new session's Writer, synced; continue it with a Recorder
// after StartAfter(State.LastTurn).
func Fork(home string, s *Session, upToTurn int, h Header) (*Writer, error) {
	if s == nil {
		return nil, errors.New("fork: no session")
	}
	cut := int64(-1) // copy records with a seq below cut; -1 copies all
	if upToTurn > 0 {
		st, err := Restore(s)
		if err != nil {
			return nil, err
		}
		found := false
		for i, t := range st.Turns {
			if t.Turn != upToTurn {
				continue
			}
			found = true
			if i+1 < len(st.Turns) {
				cut = st.Turns[i+1].Seq
			}
		}
		if !found {
			return nil, fmt.Errorf("fork: turn %d is not in the conversation of session %s", upToTurn, s.Header.ID)
		}
	}
	h = forkHeader(h, s.Header)
	w, err := Create(home, h)
	if err != nil {
		return nil, fmt.Errorf("fork: %w", err)
	}
	if err := copyRecords(w, s, cut); err != nil {
		_ = w.Close()
		return nil, fmt.Errorf("fork: %w", err)
	}
	if err := w.Sync(); err != nil {
		_ = w.Close()
		return nil, fmt.Errorf("fork: %w", err)
	}
	return w, nil
}

// forkHeader fills the new header from the parent's.
func forkHeader(h, parent Header) Header {
	h.Parent = parent.ID
	fill := func(dst *string, src string) {
		if *dst == "" {
			*dst = src
		}
	}
	fill(&h.TernVersion, parent.TernVersion)
	fill(&h.Workspace, parent.Workspace)
	fill(&h.GitHead, parent.GitHead)
	fill(&h.Model, parent.Model)
	fill(&h.GatewayHost, parent.GatewayHost)
	fill(&h.ApprovalPolicy, parent.ApprovalPolicy)
	fill(&h.SystemPrompt, parent.SystemPrompt)
	fill(&h.ToolsHash, parent.ToolsHash)
	return h
}

// copyRecords appends s's records below cut to w, renumbering the seqs that
// records refer to, and copies the blobs its checkpoints name.
func copyRecords(w *Writer, s *Session, cut int64) error {
	var kept []Record
	for _, r := range s.Records {
		if cut < 0 || r.Seq < cut {
			kept = append(kept, r)
		}
	}
	seqs := make([]int64, len(kept))
	for i, r := range kept {
		seqs[i] = r.Seq
	}
	// The new seq of the first kept record at or after old (for the start
	// of a range), or of the last at or before it (for its end).
	next := make([]int64, len(kept))
	from, to := NewStore(s.Path), NewStore(w.Path())
	for i, r := range kept {
		b := r.Body
		switch v := b.(type) {
		case Rewind:
			v.Undo = remap(seqs, next[:i], v.Undo, false)
			b = v
		case Checkpoint:
			v.Rewind = remap(seqs, next[:i], v.Rewind, false)
			for _, hash := range []string{v.Hash, v.After} {
				if err := copyBlob(from, to, hash); err != nil {
					return err
				}
			}
			b = v
		case UserMessage:
			if err := copyImages(from, to, v.Images); err != nil {
				return err
			}
		case ToolResult:
			if err := copyImages(from, to, v.Images); err != nil {
				return err
			}
		case Compaction:
			v.FromSeq = remap(seqs, next[:i], v.FromSeq, true)
			v.ToSeq = remap(seqs, next[:i], v.ToSeq, false)
			b = v
		}
		seq, err := w.Append(b)
		if err != nil {
			return err
		}
		next[i] = seq
	}
	return nil
}

// remap turns an old seq into the new seq of the same record among those
// already copied (done[i] is the new seq of old seqs[i]); for a record that
// is gone it takes the next one (up) or the previous one. 0 stays 0.
func remap(seqs, done []int64, old int64, up bool) int64 {
	if old == 0 || len(done) == 0 {
		return old
	}
	i := sort.Search(len(done), func(i int) bool { return seqs[i] >= old })
	switch {
	case i < len(done) && seqs[i] == old:
		return done[i]
	case up && i < len(done):
		return done[i]
	case !up && i > 0:
		return done[i-1]
	case up:
		return done[len(done)-1] + 1
	}
	return done[0]
}

// copyImages puts the pictures a prompt or a tool result names into the
// fork's store, so the forked conversation sends them as the parent did.
func copyImages(from, to *Store, refs []ImageRef) error {
	for _, ref := range refs {
		if err := copyBlob(from, to, ref.Hash); err != nil {
			return err
		}
	}
	return nil
}

// copyBlob puts the blob hash of one store into another, by a hard link
// when possible; "" and Absent name no blob.
func copyBlob(from, to *Store, hash string) error {
	if hash == "" || hash == Absent || !validHash(hash) {
		return nil
	}
	src, dst := filepath.Join(from.Dir(), hash), filepath.Join(to.Dir(), hash)
	if _, err := os.Stat(dst); err == nil {
		return nil
	}
	if err := os.MkdirAll(to.Dir(), 0o700); err != nil {
		return fmt.Errorf("copy checkpoint: %w", err)
	}
	if err := os.Link(src, dst); err == nil {
		return nil
	}
	in, err := os.Open(src)
	if errors.Is(err, os.ErrNotExist) {
		return nil // a blob the parent lost; rewinding that file will say so
	}
	if err != nil {
		return fmt.Errorf("copy checkpoint: %w", err)
	}
	defer func() { _ = in.Close() }()
	data, err := io.ReadAll(in)
	if err != nil {
		return fmt.Errorf("copy checkpoint: %w", err)
	}
	if _, err := to.Save(data); err != nil {
		return fmt.Errorf("copy checkpoint: %w", err)
	}
	return nil
}
