package openai

// A token's chunk. Most events of an answer carry one piece of text in the
// same envelope as the event before: the same id, model and choice, the
// same members after the text. The decoder keeps the layout of the last
// such event, the bytes before the text's string and after it, and decodes
// an event with the same bytes around a string by reading that string
// alone. The string is read as usual (escapes, control characters), must
// end exactly where the bytes after it begin, and the event is decoded in
// full otherwise: what it decodes to, and every error, are what the full
// decode gives, since a JSON string is read the same wherever it stands.

// textSpan is where the string of a content or reasoning_content member
// stands in the event being decoded.
type textSpan struct {
	set, reasoning bool
	// open is the index of the string's opening quote, end of its closing
	// one.
	open, end int
}

// layout is the shape of a chunk that carried a lone piece of text.
type layout struct {
	// head is the event up to and with the string's opening quote, tail
	// from its closing quote.
	head, tail []byte
	reasoning  bool
	index      int
}

// valueStart is where the value about to be read starts.
func (d *decoder) valueStart() int {
	d.ws()
	return d.i
}

// noteText records the span of the content or reasoning_content string
// that began at open, if it was a string; any other value unsets it.
func (d *decoder) noteText(open int, reasoning bool) {
	d.text1 = textSpan{}
	if open < len(d.data) && d.data[open] == '"' && d.i > open && d.data[d.i-1] == '"' {
		d.text1 = textSpan{set: true, reasoning: reasoning, open: open, end: d.i - 1}
	}
}

// keepLayout remembers the event just decoded into c when it is a lone
// piece of text or reasoning from the member noteText saw last.
func (d *decoder) keepLayout(c *chunk) {
	t := d.text1
	ok := t.set && len(c.choices) == 1 && !c.hasUsage && !c.failed
	if ok {
		ch := &c.choices[0]
		field, other := ch.content, ch.reasoning
		if t.reasoning {
			field, other = ch.reasoning, ch.content
		}
		ok = len(field) > 0 && len(other) == 0 && len(ch.reasoningAlt) == 0 && len(ch.refusal) == 0 &&
			len(ch.calls) == 0 && ch.finish == ""
	}
	if !ok {
		return
	}
	l := &d.layout
	head, tail := d.data[:t.open+1], d.data[t.end:]
	if len(head)+len(tail) > maxKept {
		*l = layout{} // a hostile envelope is not kept for the next event
		return
	}
	if string(l.head) != string(head) {
		l.head = append(l.head[:0], head...)
	}
	if string(l.tail) != string(tail) {
		l.tail = append(l.tail[:0], tail...)
	}
	l.reasoning, l.index = t.reasoning, c.choices[0].index
}

// fromLayout decodes data into c when it has the kept layout around a
// valid string; false leaves data to the full decode.
func (d *decoder) fromLayout(data []byte, c *chunk) bool {
	l := &d.layout
	h, t := len(l.head), len(l.tail)
	if h == 0 || len(data) < h+t || string(data[:h]) != string(l.head) || string(data[len(data)-t:]) != string(l.tail) {
		return false
	}
	// Read the string from its opening quote, in data cut after the
	// closing quote the tail begins with: it must end exactly there.
	d.data, d.i, d.depth = data[:len(data)-t+1], h-1, 0
	text, err := d.rawString()
	if err != nil || d.i != len(d.data) {
		return false
	}
	c.reset()
	if len(c.choices) < cap(c.choices) {
		c.choices = c.choices[:1]
	} else {
		c.choices = append(c.choices, choice{})
	}
	ch := &c.choices[0]
	*ch = choice{
		index: l.index, calls: ch.calls[:0], content: ch.content[:0], reasoning: ch.reasoning[:0],
		reasoningAlt: ch.reasoningAlt[:0], refusal: ch.refusal[:0],
	}
	if l.reasoning {
		ch.reasoning = append(ch.reasoning, text...)
	} else {
		ch.content = append(ch.content, text...)
	}
	d.data, d.i = data, len(data)
	return true
}
