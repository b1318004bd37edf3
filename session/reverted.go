package session

import "slices"

// Reverted lists the files that /undo or a code-only rewind put back since
// the session's last user message, so a resumed session can still tell
// the model (agent.NoteReverted) when tern ended before the next message
// carried the note. Restored files are as they were before the model's
// edits; removed ones, which the model created, are gone. An undone revert
// takes its files off again, and a rewind of the conversation clears the
// list: the model no longer remembers the edits.
func Reverted(s *Session) (restored, removed []string) {
	// gone says, per path, whether the revert removed it (else restored).
	gone := map[string]bool{}
	var order []string
	// kind is each code rewind's effect: true reverts, false undoes one.
	kind := map[int64]bool{}
	for _, r := range s.Records {
		switch b := r.Body.(type) {
		case UserMessage:
			gone, order = map[string]bool{}, nil
		case Rewind:
			switch {
			case b.Conversation:
				gone, order = map[string]bool{}, nil
			case b.Code:
				kind[r.Seq] = b.Undo == 0
			}
		case Checkpoint:
			reverts, ok := kind[b.Rewind]
			switch {
			case b.Rewind == 0 || !ok:
			case reverts:
				if _, seen := gone[b.Path]; !seen {
					order = append(order, b.Path)
				}
				gone[b.Path] = b.After == Absent
			default:
				delete(gone, b.Path)
			}
		}
	}
	for _, p := range order {
		if g, ok := gone[p]; ok && g {
			removed = append(removed, p)
		} else if ok {
			restored = append(restored, p)
		}
	}
	slices.Sort(restored)
	slices.Sort(removed)
	return restored, removed
}
