package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// DefaultMaxRepeats is how many times one turn may make the same tool call
// (same name, same arguments) before the turn ends, when
// Options.MaxRepeats is not set.
const DefaultMaxRepeats = 5

// repeatWarnAt is the repetition from which a repeated call is not run
// again and the model is told it is repeating itself.
const repeatWarnAt = 3

// ErrRepeating is wrapped by the error of a turn the loop guard ended: the
// model kept making the same call.
var ErrRepeating = errors.New("the model kept repeating the same tool call")

// repeats counts the calls of one turn by name and canonical arguments.
type repeats struct {
	// max is the repetition that ends the turn; 0 turns the guard off.
	max  int
	seen map[string]int
}

// newRepeats returns the guard for Options.MaxRepeats (0: the default,
// negative: off).
func newRepeats(opt int) repeats {
	switch {
	case opt == 0:
		opt = DefaultMaxRepeats
	case opt < 0:
		opt = 0
	}
	return repeats{max: opt, seen: make(map[string]int)}
}

// note counts pc and says what to do with it: run it (nil result and nil
// error), answer it with the returned result without running it, or end
// the turn with the returned error.
func (r *repeats) note(pc *preparedCall) (*ToolResult, error) {
	if r.max <= 0 {
		return nil, nil
	}
	key := pc.call.Name + "\x00" + canonicalArgs(pc)
	r.seen[key]++
	n := r.seen[key]
	switch {
	case n >= r.max:
		return nil, fmt.Errorf("%w: %s was called %d times in this turn with the same arguments, so the turn stopped (max_repeats %d); "+
			"send a message to say how to go on", ErrRepeating, pc.call.Name, n, r.max)
	case n >= repeatWarnAt:
		res := errorResult("repeated call", fmt.Sprintf(
			"Not run: this is the %s time in this turn you called %s with exactly these arguments, and the result would be the same as before. "+
				"You are repeating yourself. Use the results you already have, try a different approach, or stop and explain to the user what blocks you. "+
				"At %d identical calls the turn ends.", ordinal(n), pc.call.Name, r.max))
		return &res, nil
	}
	return nil, nil
}

// canonicalArgs is a call's arguments in one spelling, so key order and
// spacing do not hide a repetition: JSON objects re-encoded with sorted
// keys, or the raw text when they do not parse.
func canonicalArgs(pc *preparedCall) string {
	raw := []byte(pc.raw)
	if pc.argErr == nil {
		raw = pc.args
	}
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	var v any
	if d.Decode(&v) != nil {
		return string(raw)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return string(raw)
	}
	return string(b)
}

// ordinal spells n as "3rd", "4th".
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}
