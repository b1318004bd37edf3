package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"sort"
	"strconv"
	"time"
	"unicode/utf8"
)

// Session is a session file read back.
type Session struct {
	Path   string
	Header Header
	// Records are the durable records in order. assistant_delta records are
	// not among them: a stream that got its assistant_message is represented
	// by that message alone, and one that never did (a crash mid-answer)
	// becomes an AssistantMessage marked Interrupted, placed where its last
	// delta was.
	Records []Record
	// Warnings say what Load recovered from: a torn last line, a recovered
	// partial answer, record types it does not know.
	Warnings []string
	// loaded is what Load saw of the file, for Reopen; nil for a Session
	// not read by Load.
	loaded *loadedEnd
}

// Load reads a session file. A torn last line (the process died while
// writing it: no final newline, or not valid JSON) is skipped with a notice
// in Warnings and everything before it loads; an invalid line anywhere else
// is an error naming the line.
func Load(path string) (*Session, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("load session: %w", err)
	}
	p, err := parse(path, data)
	if err != nil {
		return nil, err
	}
	p.session.loaded = &loadedEnd{size: int64(len(data)), validEnd: p.validEnd, lastSeq: p.lastSeq}
	return p.session, nil
}

// parsed is a session file with what OpenAppend needs to continue it.
type parsed struct {
	session *Session
	// validEnd is the length of the file up to and including the last good line.
	validEnd int
	lastSeq  int64
}

func parse(path string, data []byte) (*parsed, error) {
	return parseWith(path, data, true)
}

// parseWith is parse; parallel lets a large file's lines be decoded on all
// CPUs first (see predecode), which changes nothing but the time taken.
func parseWith(path string, data []byte, parallel bool) (*parsed, error) {
	s := &Session{Path: path}
	nl := bytes.IndexByte(data, '\n')
	if nl < 0 {
		if len(data) == 0 {
			return nil, fmt.Errorf("%s: empty session file (tern stopped before writing its header); remove it", path)
		}
		return nil, fmt.Errorf("%s:1: session header is incomplete (tern stopped while writing it); remove the file", path)
	}
	if err := decodeHeader(data[:nl], &s.Header); err != nil {
		return nil, fmt.Errorf("%s:1: %w", path, err)
	}
	p := &parsed{session: s, validEnd: nl + 1}
	// contentEnd is where trailing blank lines start: a line ending at or
	// after it is the last one.
	contentEnd := len(bytes.TrimRight(data, " \t\r\n"))
	asm := assembler{partials: map[string]*partial{}, finished: map[string]bool{}}
	var pre *predecoded
	if parallel {
		pre = predecode(data, nl+1)
	}
	if pre != nil {
		// Sized up front: grown by doubling, the records of a long session
		// were copied over and over into memory touched for the first time
		// (pprof of tern -c, 2,000 turns: growslice in assembler.add).
		s.Records = make([]Record, 0, len(pre.recs))
	}
	lineNo := 1
	for pos := nl + 1; pos < len(data); {
		lineNo++
		end, next, complete := len(data), len(data), false
		if i := bytes.IndexByte(data[pos:], '\n'); i >= 0 {
			end, next, complete = pos+i, pos+i+1, true
		}
		line := data[pos:end]
		start := pos
		pos = next
		if len(bytes.TrimSpace(line)) == 0 {
			if complete {
				p.validEnd = next
			}
			continue
		}
		r, known, err := pre.decode(start, line)
		if err == nil && !complete {
			err = errors.New("no newline at its end")
		}
		if err != nil {
			if end >= contentEnd {
				s.Warnings = append(s.Warnings, fmt.Sprintf("line %d was cut off while being written (tern was killed or crashed) and was skipped; everything before it loaded", lineNo))
				break
			}
			return nil, fmt.Errorf("%s:%d: invalid record (%w); the file is damaged: fix or remove that line", path, lineNo, err)
		}
		p.validEnd = next
		p.lastSeq = max(p.lastSeq, r.Seq)
		if !known {
			s.Warnings = append(s.Warnings, fmt.Sprintf("line %d: unknown record type %q skipped (written by a newer tern?)", lineNo, r.typ))
			continue
		}
		s.Records = asm.add(s.Records, r.Record)
	}
	s.Records = asm.finish(s.Records, &s.Warnings)
	return p, nil
}

func decodeHeader(line []byte, h *Header) error {
	var hl headerLine
	if err := json.Unmarshal(line, &hl); err != nil {
		return fmt.Errorf("invalid session header: %w", err)
	}
	if hl.Type != headerType {
		return fmt.Errorf("not a tern session: the first line has type %q, want %q", hl.Type, headerType)
	}
	if hl.Version < 1 || hl.Version > Version {
		return fmt.Errorf("session format version %d is not supported (this tern reads up to %d); update tern", hl.Version, Version)
	}
	*h = hl.Header
	return nil
}

// rawRecord is a decoded line with its type as written.
type rawRecord struct {
	Record
	typ string
}

// envelope holds the fields every record line has.
type envelope struct {
	Type string    `json:"type"`
	T    time.Time `json:"t"`
	Seq  int64     `json:"seq"`
}

// decodeRecord decodes one line. known is false for a type this version
// does not know (its Body is then nil).
func decodeRecord(line []byte) (r rawRecord, known bool, err error) {
	env, ok := fastEnvelope(line)
	if !ok {
		if err := json.Unmarshal(line, &env); err != nil {
			return r, false, err
		}
	}
	r.typ, r.Seq, r.T = env.Type, env.Seq, env.T
	if r.typ == "" {
		return r, false, errors.New(`no "type" field`)
	}
	if b, ok := fastBody(Type(env.Type), line); ok {
		r.Body = b
		return r, true, nil
	}
	var b Body
	switch Type(env.Type) {
	case TypeUserMessage:
		b, err = decodeBody[UserMessage](line)
	case TypeAssistantMessage:
		b, err = decodeBody[AssistantMessage](line)
	case TypeAssistantDelta:
		b, err = decodeBody[AssistantDelta](line)
	case TypeToolResult:
		b, err = decodeBody[ToolResult](line)
	case TypeApproval:
		b, err = decodeBody[Approval](line)
	case TypeGrant:
		b, err = decodeBody[Grant](line)
	case TypeUsage:
		b, err = decodeBody[Usage](line)
	case TypeModelChange:
		b, err = decodeBody[ModelChange](line)
	case TypePolicyChange:
		b, err = decodeBody[PolicyChange](line)
	case TypePlanMode:
		b, err = decodeBody[PlanMode](line)
	case TypeCompaction:
		b, err = decodeBody[Compaction](line)
	case TypeRewind:
		b, err = decodeBody[Rewind](line)
	case TypeError:
		b, err = decodeBody[ErrorRecord](line)
	case TypeCheckpoint:
		b, err = decodeBody[Checkpoint](line)
	case TypeSnapshot:
		b, err = decodeBody[Snapshot](line)
	case TypeRequest:
		b, err = decodeBody[Request](line)
	case TypeTitle:
		b, err = decodeBody[Title](line)
	case TypeSubagent:
		b, err = decodeBody[Subagent](line)
	}
	if err != nil {
		return r, false, err
	}
	if b == nil {
		// Still check the line is JSON, so a torn line of an unknown type
		// is not taken for a whole one.
		if !json.Valid(line) {
			return r, false, errors.New("invalid JSON")
		}
		return r, false, nil
	}
	r.Body = b
	return r, true, nil
}

func decodeBody[B Body](line []byte) (Body, error) {
	var b B
	if err := json.Unmarshal(line, &b); err != nil {
		return nil, err
	}
	return b, nil
}

// fastEnvelope reads type, t and seq from the fixed prefix the Writer
// writes, sparing a second JSON pass over every line. Lines written by other
// means fall back to a full decode.
func fastEnvelope(line []byte) (env envelope, ok bool) {
	rest, ok := bytes.CutPrefix(line, []byte(`{"type":"`))
	if !ok {
		return env, false
	}
	i := bytes.IndexByte(rest, '"')
	if i < 0 {
		return env, false
	}
	env.Type, rest = string(rest[:i]), rest[i+1:]
	if rest, ok = bytes.CutPrefix(rest, []byte(`,"t":"`)); !ok {
		return env, false
	}
	if i = bytes.IndexByte(rest, '"'); i < 0 {
		return env, false
	}
	t, err := time.Parse(time.RFC3339Nano, string(rest[:i]))
	if err != nil {
		return env, false
	}
	env.T, rest = t, rest[i+1:]
	if rest, ok = bytes.CutPrefix(rest, []byte(`,"seq":`)); !ok {
		return env, false
	}
	i = bytes.IndexAny(rest, ",}")
	if i < 0 {
		return env, false
	}
	seq, err := strconv.ParseInt(string(rest[:i]), 10, 64)
	if err != nil {
		return env, false
	}
	env.Seq = seq
	return env, true
}

// assembler folds assistant_delta records into partial answers.
type assembler struct {
	partials map[string]*partial
	// finished holds streams whose assistant_message was seen; later deltas
	// of them are stale.
	finished map[string]bool
}

type partial struct {
	stream          string
	text, reasoning []byte
	last            Record // the latest delta, for seq and time
	at              int    // index in records where the message goes
}

// add appends r to records unless it is a delta, which it collects.
func (a *assembler) add(records []Record, r Record) []Record {
	switch b := r.Body.(type) {
	case AssistantDelta:
		if a.finished[b.Stream] {
			return records
		}
		if b.Discard {
			delete(a.partials, b.Stream)
			return records
		}
		p := a.partials[b.Stream]
		if p == nil {
			p = &partial{stream: b.Stream}
			a.partials[b.Stream] = p
		}
		p.text = append(p.text, b.Text...)
		p.reasoning = append(p.reasoning, b.Reasoning...)
		p.last, p.at = r, len(records)
		return records
	case AssistantMessage:
		if b.Stream != "" {
			delete(a.partials, b.Stream)
			a.finished[b.Stream] = true
		}
	}
	return append(records, r)
}

// finish places each stream that never got its assistant_message as an
// interrupted message where its last delta was.
func (a *assembler) finish(records []Record, warnings *[]string) []Record {
	if len(a.partials) == 0 {
		return records
	}
	ps := make([]*partial, 0, len(a.partials))
	for _, p := range a.partials {
		if len(p.text)+len(p.reasoning) > 0 {
			ps = append(ps, p)
		}
	}
	sort.Slice(ps, func(i, j int) bool {
		if ps[i].at != ps[j].at {
			return ps[i].at < ps[j].at
		}
		return ps[i].last.Seq < ps[j].last.Seq
	})
	out := make([]Record, 0, len(records)+len(ps))
	i := 0
	for _, p := range ps {
		out = append(out, records[i:p.at]...)
		i = p.at
		out = append(out, Record{Seq: p.last.Seq, T: p.last.T, Body: AssistantMessage{
			Stream: p.stream, Text: string(p.text), Reasoning: string(p.reasoning), Interrupted: true,
		}})
		*warnings = append(*warnings, fmt.Sprintf("the answer being streamed when the session stopped (%q) was recovered up to its last flush (%d characters) and marked interrupted", p.stream, utf8.RuneCount(p.text)+utf8.RuneCount(p.reasoning)))
	}
	return append(out, records[i:]...)
}
