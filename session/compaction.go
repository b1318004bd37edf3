package session

import (
	"fmt"

	"github.com/ternhq/tern/agent"
)

// recordCompaction writes the compaction record of a finished compaction.
// The agent says how many of its last messages it kept; the log says which
// records those messages came from, so the record names the replaced ones
// by seq. When the log's conversation does not match the agent's, the
// compaction is not recorded (an error record says so): a resumed session
// then continues from the whole conversation, larger but intact.
func (r *Recorder) recordCompaction(ev agent.Event) {
	c := ev.Compaction
	if ev.Err != nil || c == nil || c.Message == "" {
		return // failed or cancelled: the conversation did not change
	}
	if err := r.Flush(); err != nil {
		return // the writer stopped; Err reports it
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	rec, err := r.compactionLocked(c)
	if err != nil {
		r.appendLocked(ErrorRecord{Kind: "compaction", Message: err.Error()})
	} else {
		r.appendLocked(rec)
	}
	_ = r.w.Sync() // a failed sync shows as the writer's error
}

// compactionLocked works out the record for c from the log as written.
func (r *Recorder) compactionLocked(c *agent.Compaction) (Compaction, error) {
	s, err := Load(r.w.Path())
	if err != nil {
		return Compaction{}, fmt.Errorf("the compaction is not in the session log (reading it failed: %w); a resumed session continues from the whole conversation", err)
	}
	f := newFolder(s)
	for _, rec := range s.Records {
		f.add(rec)
	}
	f.finish()
	seqs := f.convSeq
	cut := len(seqs) - c.Kept
	if c.Kept < 1 || cut < 1 || len(seqs) != c.Replaced+c.Kept {
		return Compaction{}, fmt.Errorf("the compaction is not in the session log: the log holds %d messages, the agent replaced %d and kept %d; a resumed session continues from the whole conversation",
			len(seqs), c.Replaced, c.Kept)
	}
	return Compaction{Summary: c.Message, FromSeq: seqs[0], ToSeq: seqs[cut] - 1, Auto: c.Auto, Focus: c.Focus}, nil
}
