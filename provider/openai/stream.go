package openai

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/ternhq/tern/provider"
)

// maxChunkExcerpt bounds the part of a malformed event quoted in its error.
const maxChunkExcerpt = 120

// stream is one streaming completion, possibly over several attempts. An
// attempt may be replaced only while none of its deltas has reached the
// consumer; after that a failure is reported and the caller decides.
type stream struct {
	p       *Provider
	ctx     context.Context
	req     goopenai.ChatCompletionRequest
	attempt int
	// effortObject is the reasoning effort sent as OpenRouter's reasoning
	// object; req carries no reasoning_effort then.
	effortObject string

	// cs owns the HTTP response; sse reads its body.
	cs    *goopenai.ChatCompletionStream
	paced *pacedBody
	sse   *sseReader
	dec   decoder
	ch    chunk

	// wd bounds the attempt's waits for data; actx is the attempt's
	// context, which wd cancels.
	wd   *watchdog
	actx context.Context

	queue []provider.Delta
	next  int
	cur   provider.Delta
	// join gathers the pieces of a joined delta (joinBuffered).
	join []byte

	delivered bool // Next has returned true
	finished  bool // the current attempt sent a finish reason
	sawCall   bool // the current attempt sent a named tool call
	gotEvent  bool // the current attempt sent a data event
	ended     bool // the stream ended normally
	closed    bool
	err       error
}

// connect starts attempts until one gets a streaming response, waiting
// between them, or returns the error that ends the request.
func (s *stream) connect() *provider.Error {
	for {
		s.attempt++
		err := s.open()
		if err == nil {
			return nil
		}
		if err = s.backoff(err); err != nil {
			return err
		}
	}
}

// open makes one attempt.
func (s *stream) open() *provider.Error {
	actx, wd := startWatchdog(s.ctx, s.p.cfg.FirstTokenTimeout, s.p.cfg.StreamIdleTimeout, s.p.timeoutError)
	ctx, ex := withExchange(actx, s.req.Model)
	ex.effortObject = s.effortObject
	cs, err := s.p.client.CreateChatCompletionStream(ctx, s.req)
	if err != nil {
		if ex.resp != nil {
			// go-openai reads an error body but never closes it.
			_ = ex.resp.Body.Close()
		}
		pe := wd.timedOut(actx)
		wd.stop()
		if pe != nil {
			return pe
		}
		return s.p.classify(s.ctx, err, ex.header(), s.req.Model)
	}
	if ex.resp == nil {
		_ = cs.Close()
		wd.stop()
		return &provider.Error{Kind: provider.ErrProtocol, Message: "go-openai returned a stream without an HTTP response"}
	}
	s.paced = newPacedBody(actx, ex.resp.Body)
	s.paced.pool = s.p.bodies
	s.paced.mark = ex.marker()
	s.paced.records = s.paced.mark == nil && ex.resp.TLS != nil && ex.resp.ProtoMajor == 1
	s.cs, s.sse = cs, newSSEReader(s.paced)
	s.wd, s.actx = wd, actx
	s.finished, s.sawCall, s.gotEvent = false, false, false
	return nil
}

// backoff waits before the next attempt and returns nil when err allows one;
// otherwise it returns the error to report.
func (s *stream) backoff(err *provider.Error) *provider.Error {
	if !err.Kind.Retryable() || s.attempt >= s.p.cfg.MaxAttempts || err.RetryAfter > maxRetryAfter {
		return err
	}
	d := backoff(s.p.cfg.BaseBackoff, s.attempt, err.RetryAfter, s.p.jitter)
	if tr := provider.TraceFrom(s.ctx); tr != nil && tr.Retrying != nil {
		tr.Retrying(provider.Retrying{Attempt: s.attempt + 1, MaxAttempts: s.p.cfg.MaxAttempts, Wait: d, At: time.Now().Add(d), Err: err})
	}
	if werr := s.p.wait(s.ctx, d); werr != nil {
		return s.p.classify(s.ctx, werr, nil, s.req.Model)
	}
	return nil
}

// Next advances to the next delta. It returns false at the end of the
// stream, after an error, after Close, and as soon as the context is
// cancelled.
func (s *stream) Next() bool {
	for {
		if s.err != nil || s.closed {
			return false
		}
		if cerr := s.ctx.Err(); cerr != nil {
			s.fail(s.p.classify(s.ctx, cerr, nil, s.req.Model))
			return false
		}
		if s.next < len(s.queue) {
			s.cur = s.queue[s.next]
			s.next++
			s.delivered = true
			return true
		}
		if s.ended {
			return false
		}
		if err := s.fill(); err != nil {
			s.queue, s.next = s.queue[:0], 0 // nothing of a failed attempt is delivered
			_ = s.release()                  // the attempt failed already; its Close error adds nothing
			if !s.delivered {
				if err = s.backoff(err); err == nil {
					err = s.connect()
				}
			}
			if err != nil {
				s.fail(err)
				return false
			}
		}
	}
}

// Delta returns the delta Next advanced to.
func (s *stream) Delta() provider.Delta { return s.cur }

// Buffered reports whether the next delta is already here, so Next will
// return without waiting for the network. The agent uses it to join the
// text pieces of one read into one event.
func (s *stream) Buffered() bool {
	return s.next < len(s.queue) || (s.sse != nil && s.sse.eventBuffered())
}

// Err returns the *provider.Error that ended the stream, or nil after a
// normal end. A stream that ends without a finish reason is an error.
func (s *stream) Err() error { return s.err }

// Close releases the connection; it is safe to call more than once.
func (s *stream) Close() error {
	if s.closed {
		return nil
	}
	s.closed = true
	return s.release()
}

func (s *stream) fail(err *provider.Error) {
	s.err = err
	_ = s.release() // err says what went wrong; Close's error adds nothing
}

// release closes the current attempt's response.
func (s *stream) release() error {
	if s.cs == nil {
		return nil
	}
	s.paced.close()
	err := s.cs.Close()
	s.wd.stop()
	s.cs, s.paced, s.sse, s.wd = nil, nil, nil, nil
	return err
}

// fill reads the next event into the queue, which it may leave empty.
func (s *stream) fill() *provider.Error {
	s.queue, s.next = s.queue[:0], 0
	s.wd.waiting()
	payload, done, err := s.sse.next()
	if err != nil {
		if pe := s.wd.timedOut(s.actx); pe != nil {
			if s.finished {
				// The answer is complete and only its trailer (usage,
				// [DONE], the end of the body) never came: a failure
				// here would have the agent ask for it again.
				s.ended = true
				_ = s.release() // the attempt is over; Close's error adds nothing
				return nil
			}
			return pe // the watchdog ended the wait: say which limit
		}
	}
	switch {
	case done:
		s.ended = true
		if !s.finished {
			// [DONE] without a finish reason: the gateway says the answer is
			// complete, so report the reason it implies.
			s.queue = append(s.queue, provider.Delta{Kind: provider.DeltaFinish, Finish: s.impliedFinish(provider.FinishStop)})
			s.finished = true
		}
		_ = s.release() // the answer is complete; Close's error is moot
		return nil
	case errors.Is(err, io.EOF):
		if !s.gotEvent && len(s.sse.stray) > 0 {
			return s.document()
		}
		if s.finished {
			s.ended = true
			_ = s.release() // the answer is complete; Close's error is moot
			return nil
		}
		return s.endedEarly()
	case errors.Is(err, errLineTooLong):
		return &provider.Error{Kind: provider.ErrProtocol, Message: "the gateway sent " + err.Error(), Err: err}
	case err != nil:
		return s.p.classify(s.ctx, err, nil, s.req.Model)
	}
	s.gotEvent = true
	if derr := s.dec.decode(payload, &s.ch); derr != nil {
		if s.sse.partial {
			return s.endedEarly()
		}
		return &provider.Error{
			Kind:    provider.ErrProtocol,
			Message: fmt.Sprintf("the gateway sent a malformed stream event (%v): %s", derr, chunkExcerpt(payload)),
			Err:     derr,
		}
	}
	if s.ch.failed {
		return s.inStreamError(s.ch.err)
	}
	finished := s.finished
	if p := s.ch.piece(); p.lone {
		s.queue = append(s.queue, provider.Delta{Kind: p.kind, Text: s.joinBuffered(p)})
	} else {
		s.queueChunk()
	}
	s.ch.shrink()
	if progress(s.queue, finished) {
		// Only an event that brings the answer forward ends the wait: a
		// gateway that sends empty chunks (no choices, a bare role, usage
		// alone) every second is as stalled as one that sends comments.
		s.wd.gotData()
	}
	if s.finished && !finished {
		// The answer is complete: what may follow (usage, [DONE], the end
		// of the body) is not worth the whole idle limit.
		s.wd.finished(trailerWait)
	}
	return nil
}

// joinBuffered returns the text of p, a lone piece of the event just read,
// joined with the pieces of the same kind and choice that the events
// already buffered after it carry, consuming those events (and any that
// carry nothing at all). A gateway sends a token an event, and a delta each
// cost the agent and every consumer once per token; a burst read at once
// is now one delta. It stops at the first event that is anything else or
// not whole in the buffer, which the next fill reads as ever: nothing waits
// for the network, and errors, tool calls and the finish keep their order.
func (s *stream) joinBuffered(p piece) string {
	payload, n := s.sse.bufferedEvent()
	if payload == nil {
		return string(p.text)
	}
	s.join = append(s.join[:0], p.text...) // p.text is the chunk's, which the next decode reuses
	for payload != nil {
		if s.dec.decode(payload, &s.ch) != nil {
			break // the next fill decodes it again and reports it
		}
		next := s.ch.piece()
		switch {
		case next.empty:
		case next.lone && next.kind == p.kind && next.index == p.index:
			s.join = append(s.join, next.text...)
		default:
			return s.joined()
		}
		s.sse.discard(n)
		payload, n = s.sse.bufferedEvent()
	}
	return s.joined()
}

// joined is the joined burst's text; a buffer a huge piece grew is not
// kept for the next burst.
func (s *stream) joined() string {
	text := string(s.join)
	s.join = small(s.join)
	return text
}

// progress reports whether deltas bring the answer forward: text,
// reasoning, a tool-call fragment or the first finish (finished: one came
// already), not usage alone nor a finish repeated.
func progress(ds []provider.Delta, finished bool) bool {
	for _, d := range ds {
		switch d.Kind {
		case provider.DeltaText, provider.DeltaReasoning, provider.DeltaToolCall:
			return true
		case provider.DeltaFinish:
			if !finished {
				return true
			}
		case provider.DeltaUsage:
		}
	}
	return false
}

// queueChunk turns the decoded chunk into deltas: per choice reasoning, text
// and tool-call fragments, then the finish reason, then usage (which comes
// last in OpenAI's own streams).
func (s *stream) queueChunk() {
	finish := ""
	for i := range s.ch.choices {
		c := &s.ch.choices[i]
		if reasoning := c.reasoningText(); len(reasoning) > 0 {
			s.queue = append(s.queue, provider.Delta{Kind: provider.DeltaReasoning, Text: string(reasoning)})
		}
		if len(c.content) > 0 {
			s.queue = append(s.queue, provider.Delta{Kind: provider.DeltaText, Text: string(c.content)})
		}
		if len(c.refusal) > 0 {
			s.queue = append(s.queue, provider.Delta{Kind: provider.DeltaText, Text: string(c.refusal)})
		}
		for _, f := range c.calls {
			if f.ID == "" && f.Name == "" && f.Arguments == "" {
				continue
			}
			if f.Name != "" {
				s.sawCall = true
			}
			s.queue = append(s.queue, provider.Delta{Kind: provider.DeltaToolCall, ToolCall: f})
		}
		if c.finish != "" {
			finish = c.finish
		}
	}
	if finish != "" {
		s.finished = true
		r := s.impliedFinish(provider.ParseFinishReason(finish))
		s.queue = append(s.queue, provider.Delta{Kind: provider.DeltaFinish, Finish: r})
	}
	if s.ch.hasUsage {
		s.queue = append(s.queue, provider.Delta{Kind: provider.DeltaUsage, Usage: s.ch.usage})
	}
}

// impliedFinish corrects "stop" to tool_calls when the answer made tool
// calls: some local servers send a whole call with finish_reason "stop", and
// the calls still have to be run and answered.
func (s *stream) impliedFinish(r provider.FinishReason) provider.FinishReason {
	if r == provider.FinishStop && s.sawCall {
		return provider.FinishToolCalls
	}
	return r
}

// endedEarly is the error for a body that ended before a finish reason.
func (s *stream) endedEarly() *provider.Error {
	if cerr := s.ctx.Err(); cerr != nil {
		return s.p.classify(s.ctx, cerr, nil, s.req.Model)
	}
	return &provider.Error{
		Kind: provider.ErrNetwork,
		Message: fmt.Sprintf("the stream from %s ended early, before the model finished (no finish reason, no [DONE]); the gateway or a proxy closed the connection: try again",
			s.p.cfg.BaseURL),
		Err: io.ErrUnexpectedEOF,
	}
}

// document handles a body without a single data event: a server that
// ignored stream:true and sent one JSON answer, a bare JSON error, or
// something else entirely (an HTML page from a proxy).
func (s *stream) document() *provider.Error {
	doc := s.sse.stray
	s.sse.stray, s.gotEvent = nil, true
	if s.dec.decode(doc, &s.ch) == nil {
		if s.ch.failed {
			return s.inStreamError(s.ch.err)
		}
		s.queueChunk()
		if s.finished {
			return nil
		}
	}
	return &provider.Error{
		Kind: provider.ErrProtocol,
		Message: fmt.Sprintf("the gateway at %s did not send an event stream (it sent: %s); check the base URL (it usually ends in /v1)",
			s.p.cfg.BaseURL, chunkExcerpt(doc)),
	}
}

// inStreamError classifies an error object sent inside a 200 stream. A
// numeric code helps the classification but is not the HTTP status.
func (s *stream) inStreamError(e streamError) *provider.Error {
	pe := s.p.fromFailure(failure{status: e.status, code: e.code, typ: e.typ, message: e.message}, nil, s.req.Model, nil)
	pe.Status = 0
	return pe
}

// chunkExcerpt quotes the start of an event for an error message, with
// control characters blanked so the message stays on one line.
func chunkExcerpt(b []byte) string {
	cut := len(b)
	if cut > maxChunkExcerpt {
		cut = maxChunkExcerpt
		for cut > 0 && !utf8.RuneStart(b[cut]) {
			cut--
		}
	}
	text := strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, strings.ToValidUTF8(string(b[:cut]), "\ufffd"))
	if cut < len(b) {
		text += "…"
	}
	return "`" + text + "`"
}
