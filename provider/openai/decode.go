package openai

import (
	"strconv"

	"github.com/ternhq/tern/provider"
)

// chunk is what one stream event carried. Its slices are reused from event to
// event, so nothing in it may be kept after the next decode.
type chunk struct {
	choices  []choice
	usage    provider.Usage
	hasUsage bool
	// failed reports an error object inside the event ("error": {...}).
	failed bool
	err    streamError
}

// choice is the part of a chunk for one choice: the delta fields tern uses.
// Its texts are copied into buffers reused from event to event, so a token
// costs no allocation until the stream makes a delta's string.
type choice struct {
	// index is the choice's index, -1 when absent or not a small integer.
	index     int
	content   []byte
	reasoning []byte
	// reasoningAlt holds the "reasoning" key some gateways use instead of
	// "reasoning_content"; it counts only when reasoning_content is empty, so
	// a gateway that sends both does not double the text.
	reasoningAlt []byte
	refusal      []byte
	calls        []provider.ToolCallFragment
	finish       string
}

// reasoningText is the choice's reasoning, from whichever key carried it.
func (ch *choice) reasoningText() []byte {
	if len(ch.reasoning) > 0 {
		return ch.reasoning
	}
	return ch.reasoningAlt
}

// streamError is an error object a gateway sent inside a 200 stream.
type streamError struct {
	message string
	code    string
	typ     string
	// status is a numeric code or status field, which some gateways set to
	// the HTTP status the failure would have had.
	status int
}

func (c *chunk) reset() {
	c.choices = c.choices[:0]
	c.usage, c.hasUsage = provider.Usage{}, false
	c.failed, c.err = false, streamError{}
}

// decode fills c from one event payload.
func (d *decoder) decode(data []byte, c *chunk) error {
	if d.fromLayout(data, c) {
		return nil
	}
	d.data, d.i, d.depth = data, 0, 0
	d.text1 = textSpan{}
	c.reset()
	if err := d.open('{'); err != nil {
		return err
	}
	// skipped is where the members tern skips, from the start of the
	// object, end (-1 before one was): the envelope of every chunk (id,
	// object, created, model, system_fingerprint), which most gateways
	// repeat byte for byte from chunk to chunk.
	first, skipped, used := true, -1, false
	if n := len(d.prefix); n > 0 && len(data) > n && string(data[:n]) == string(d.prefix) {
		d.i, first, skipped = n-1, false, n-1
	}
	for ; ; first = false {
		key, more, err := d.member(first)
		if err != nil {
			return err
		}
		if !more {
			break
		}
		switch string(key) {
		case "choices":
			err, used = d.choices(c), true
		case "usage":
			err, used = d.usage(c), true
		case "error":
			err, used = d.errorValue(c), true
		default:
			err = d.skip()
			if !used {
				skipped = d.i
			}
		}
		if err != nil {
			return err
		}
	}
	d.ws()
	if d.i != len(d.data) {
		return d.fail("unexpected data after the JSON object")
	}
	d.keepPrefix(skipped)
	d.keepLayout(c)
	return nil
}

// keepPrefix remembers the valid chunk's start up to end, where its skipped
// members end, and one byte more: the next chunk that starts with the same
// bytes is decoded from end, as its skipped members would be read the same
// way. The byte after end (a comma, a space, the closing brace) makes sure
// the last of them, a number perhaps, ended there in both.
func (d *decoder) keepPrefix(end int) {
	switch {
	case end >= maxKept:
		d.prefix = nil // a hostile envelope is not kept for the next event
	case end < 0 || end >= len(d.data):
		d.prefix = d.prefix[:0]
	case len(d.prefix) != end+1 || string(d.prefix) != string(d.data[:end+1]):
		d.prefix = append(d.prefix[:0], d.data[:end+1]...)
	}
}

func (d *decoder) choices(c *chunk) error {
	if d.null() {
		return nil
	}
	return d.array(func() error {
		if len(c.choices) < cap(c.choices) {
			c.choices = c.choices[:len(c.choices)+1]
		} else {
			c.choices = append(c.choices, choice{})
		}
		ch := &c.choices[len(c.choices)-1]
		*ch = choice{
			index: -1, calls: ch.calls[:0], content: ch.content[:0], reasoning: ch.reasoning[:0],
			reasoningAlt: ch.reasoningAlt[:0], refusal: ch.refusal[:0],
		}
		return d.choice(ch)
	})
}

func (d *decoder) choice(ch *choice) error {
	return d.object(func(key []byte) (err error) {
		switch string(key) {
		case "delta", "message":
			// "message" is what a server that ignores stream:true sends.
			err = d.delta(ch)
		case "finish_reason":
			ch.finish, err = d.str()
		case "index":
			ch.index, err = d.smallIndex()
		default:
			err = d.skip()
		}
		return err
	})
}

func (d *decoder) delta(ch *choice) error {
	if d.null() {
		return nil
	}
	return d.object(func(key []byte) (err error) {
		switch string(key) {
		case "content":
			start := d.valueStart()
			ch.content, err = d.text(ch.content[:0])
			d.noteText(start, false)
		case "reasoning_content":
			start := d.valueStart()
			ch.reasoning, err = d.text(ch.reasoning[:0])
			d.noteText(start, true)
		case "reasoning":
			ch.reasoningAlt, err = d.optText(ch.reasoningAlt[:0])
		case "refusal":
			ch.refusal, err = d.optText(ch.refusal[:0])
		case "tool_calls":
			err = d.toolCalls(ch)
		default:
			err = d.skip()
		}
		return err
	})
}

func (d *decoder) toolCalls(ch *choice) error {
	if d.null() {
		return nil
	}
	return d.array(func() error {
		var f provider.ToolCallFragment
		if err := d.toolCall(&f); err != nil {
			return err
		}
		ch.calls = append(ch.calls, f)
		return nil
	})
}

func (d *decoder) toolCall(f *provider.ToolCallFragment) error {
	return d.object(func(key []byte) (err error) {
		switch string(key) {
		case "index":
			f.Index, f.HasIndex, err = d.int()
		case "id":
			f.ID, err = d.str()
		case "function":
			err = d.function(f)
		default:
			err = d.skip()
		}
		return err
	})
}

func (d *decoder) function(f *provider.ToolCallFragment) error {
	if d.null() {
		return nil
	}
	return d.object(func(key []byte) (err error) {
		switch string(key) {
		case "name":
			f.Name, err = d.str()
		case "arguments":
			f.Arguments, err = d.arguments()
		default:
			err = d.skip()
		}
		return err
	})
}

// arguments reads the arguments of a call: normally a string holding JSON,
// but a few servers send the JSON object itself, which is taken verbatim.
func (d *decoder) arguments() (string, error) {
	d.ws()
	if d.i < len(d.data) && (d.data[d.i] == '{' || d.data[d.i] == '[') {
		start := d.i
		if err := d.skip(); err != nil {
			return "", err
		}
		return string(d.data[start:d.i]), nil
	}
	return d.str()
}

func (d *decoder) usage(c *chunk) error {
	if d.null() {
		return nil
	}
	if err := d.open('{'); err != nil {
		return err
	}
	c.hasUsage = true
	cached, hasCached := 0, false
	hit := 0
	err := d.members(func(key []byte) (err error) {
		switch string(key) {
		case "prompt_tokens":
			c.usage.PromptTokens, _, err = d.int()
		case "completion_tokens":
			c.usage.CompletionTokens, _, err = d.int()
		case "prompt_tokens_details":
			cached, hasCached, err = d.cachedTokens()
		case "prompt_cache_hit_tokens":
			// DeepSeek's name for cached prompt tokens.
			hit, _, err = d.int()
		default:
			err = d.skip()
		}
		return err
	})
	if err != nil {
		return err
	}
	if hasCached {
		c.usage.CachedPromptTokens = cached
	} else {
		c.usage.CachedPromptTokens = hit
	}
	return nil
}

func (d *decoder) cachedTokens() (n int, ok bool, err error) {
	if d.null() {
		return 0, false, nil
	}
	err = d.object(func(key []byte) (err error) {
		if string(key) == "cached_tokens" {
			n, ok, err = d.int()
			return err
		}
		return d.skip()
	})
	if err != nil {
		return 0, false, err
	}
	return n, ok, nil
}

// errorValue reads an "error" member: null, a message string or an object.
// It is lenient about field types, because the event is a failure either way
// and the user is better served by whatever message it holds.
func (d *decoder) errorValue(c *chunk) error {
	d.ws()
	if d.null() {
		return nil
	}
	if d.i < len(d.data) && d.data[d.i] == '"' {
		msg, err := d.str()
		c.failed, c.err = true, streamError{message: msg}
		return err
	}
	if err := d.open('{'); err != nil {
		return err
	}
	c.failed = true
	return d.members(func(key []byte) (err error) {
		switch string(key) {
		case "message":
			c.err.message, err = d.loose()
		case "code":
			c.err.code, err = d.loose()
			if n, convErr := strconv.Atoi(c.err.code); convErr == nil {
				c.err.status = n
			}
		case "status":
			var s string
			s, err = d.loose()
			if n, convErr := strconv.Atoi(s); convErr == nil {
				c.err.status = n
			}
		case "type":
			c.err.typ, err = d.loose()
		default:
			err = d.skip()
		}
		return err
	})
}

// loose reads any value as text: a string's content, or the raw JSON of
// anything else (null becomes "").
func (d *decoder) loose() (string, error) {
	d.ws()
	if d.i < len(d.data) && d.data[d.i] == '"' {
		return d.str()
	}
	if d.null() {
		return "", nil
	}
	start := d.i
	if err := d.skip(); err != nil {
		return "", err
	}
	return string(d.data[start:d.i]), nil
}
