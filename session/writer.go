package session

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/ternhq/tern/provider"
)

// ErrClosed is returned by a Writer used after Close.
var ErrClosed = errors.New("session log is closed")

// sink is where a Writer's lines go: the session file, or a stand-in in tests.
type sink interface {
	Write(p []byte) (int, error)
	Sync() error
	Close() error
}

// Writer appends records to one session file. Its methods are safe for
// concurrent use and never wait for the disk, except Sync and Close: records
// are queued in memory and written by the Writer's own goroutine, which runs
// until Close.
type Writer struct {
	path   string
	header Header
	now    func() time.Time
	every  time.Duration
	out    sink
	// syncDir, when set, is the new file's folder, whose entry for the file
	// a goroutine of its own syncs as soon as the Writer starts, while the
	// first turn is under way; the writer goroutine waits for it (dirSynced
	// closed) after the file's first fsync (the end of the first turn, or
	// Close). Neither Create nor the first request waits for the disk, the
	// turn's end waits for one fsync instead of two in a row, and a log
	// lost before then held only a header.
	syncDir   string
	dirSynced chan struct{}
	// folder is the log's folder, marked at each write (markFolder).
	folder string

	mu      sync.Mutex
	seq     int64
	queue   []Record // appended, not yet taken by the writer goroutine
	spare   []Record // the previous batch, reused to spare allocations
	streams []*stream
	// flushed holds streams with delta records on disk and no final message
	// yet, so DiscardDelta knows when a discard record is needed.
	flushed map[string]bool
	// deltasWaiting is true while some stream holds unflushed text.
	deltasWaiting bool
	syncs         []syncRequest
	closing       bool
	err           error // first write failure; writing stops there

	wake chan struct{}
	done chan struct{}
}

// syncRequest asks the writer goroutine to write what is queued (and to
// fsync the file when fsync is set), then to answer on reply.
type syncRequest struct {
	reply chan error
	fsync bool
}

// stream is the unflushed text of a message in progress, kept as the
// pieces it came in: a fast answer's message usually supersedes them
// before they are written, and then they were never copied (a []byte grown
// by doubling cost a fresh process's first 62 KB answer 70 page faults).
type stream struct {
	id              string
	text, reasoning provider.Pieces
}

// Dir returns the folder holding the sessions of a tern home.
func Dir(home string) string {
	return filepath.Join(home, "sessions")
}

// Create starts a new session file under Dir(home)/YYYY/MM/DD/ (the local
// date of h.Created) named <HHMMSS>-<id>.jsonl, writes its header (synced,
// with the folder's entry, at the first Sync or Close), and returns a
// Writer for its records. It fills h.Version, and h.ID and h.Created when
// empty.
func Create(home string, h Header, opts ...Option) (*Writer, error) {
	o := buildOptions(opts)
	if err := h.prepare(o.now()); err != nil {
		return nil, err
	}
	local := h.Created.Local()
	dir := filepath.Join(Dir(home), local.Format("2006"), local.Format("01"), local.Format("02"))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create session folder: %w", err)
	}
	path := filepath.Join(dir, local.Format("150405")+"-"+h.ID+".jsonl")
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|os.O_APPEND, 0o600)
	if err != nil {
		return nil, fmt.Errorf("create session file: %w", err)
	}
	line, err := newEncoder().appendHeader(nil, h)
	if err == nil {
		_, err = f.Write(line)
		markFolder(dir) // the file's creation marked it; the header is news too
	}
	if err != nil {
		_ = f.Close()
		_ = os.Remove(path)
		return nil, fmt.Errorf("write session header to %s: %w", path, err)
	}
	o.syncDir = dir // the Writer syncs the folder at once, beside the turn, and the header with the first records: Create does not wait for the disk
	return newWriter(f, path, h, 0, o), nil
}

// OpenAppend reopens an existing session file to add records after the last
// one, continuing its sequence numbers. A torn last line (see Load) is cut
// off first so new records start on a line of their own.
func OpenAppend(path string, opts ...Option) (*Writer, error) {
	o := buildOptions(opts)
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("open session: %w", err)
	}
	p, err := parse(path, data)
	if err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil, fmt.Errorf("open session for append: %w", err)
	}
	if p.validEnd < len(data) {
		err = f.Truncate(int64(p.validEnd))
		markFolder(logFolder(path))
		if err == nil {
			err = f.Sync()
		}
		if err != nil {
			_ = f.Close()
			return nil, fmt.Errorf("cut the torn last line of %s: %w", path, err)
		}
	}
	return newWriter(f, path, p.session.Header, p.lastSeq, o), nil
}

// syncDir makes a new directory entry durable. It is best effort: some
// systems cannot open or sync a directory, and the file itself is synced.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	_ = d.Close()
}

func newWriter(out sink, path string, h Header, lastSeq int64, o options) *Writer {
	w := &Writer{
		path:    path,
		header:  h,
		now:     o.now,
		every:   o.flush,
		out:     out,
		seq:     lastSeq,
		flushed: make(map[string]bool),
		wake:    make(chan struct{}, 1),
		done:    make(chan struct{}),
		syncDir: o.syncDir,
		folder:  logFolder(path),
	}
	if w.syncDir != "" {
		w.dirSynced = make(chan struct{})
		go func(dir string) {
			defer close(w.dirSynced)
			syncDir(dir)
		}(w.syncDir)
	}
	go w.run()
	return w
}

// Path is the session file.
func (w *Writer) Path() string { return w.path }

// Header is the session's header as written.
func (w *Writer) Header() Header { return w.header }

// Append queues a record and returns its sequence number. It does not wait
// for the disk; Sync does. b must not be modified afterwards. An
// AssistantMessage with a Stream drops that stream's unflushed deltas: the
// message supersedes them. Append reports ErrClosed after Close, and the
// error that stopped writing if an earlier write failed.
func (w *Writer) Append(b Body) (int64, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.err != nil {
		return 0, w.err
	}
	if w.closing {
		return 0, ErrClosed
	}
	if m, ok := b.(AssistantMessage); ok && m.Stream != "" {
		w.dropStreamLocked(m.Stream)
		delete(w.flushed, m.Stream)
	}
	w.seq++
	w.queue = append(w.queue, Record{Seq: w.seq, T: stamp(w.now()), Body: b})
	if len(w.queue) == 1 {
		// A longer queue means the writer goroutine was already woken and
		// has not taken it yet; waking it again would only cost a syscall.
		w.signal()
	}
	return w.seq, nil
}

// Delta adds streamed answer text of the message streamID. It is kept in
// memory and written as an assistant_delta record holding only the text
// added since the previous one, within the flush interval of its arrival, or
// earlier by Sync or Close. Deltas after Close are dropped. A streamID must
// not be reused within a session, also across resumes: Load joins the deltas
// of one id.
func (w *Writer) Delta(streamID, text string) {
	w.addDelta(streamID, text, false)
}

// ReasoningDelta is Delta for the model's reasoning text.
func (w *Writer) ReasoningDelta(streamID, text string) {
	w.addDelta(streamID, text, true)
}

func (w *Writer) addDelta(streamID, text string, reasoning bool) {
	if text == "" {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closing || w.err != nil {
		return
	}
	s := w.streamLocked(streamID)
	if reasoning {
		s.reasoning.WriteString(text)
	} else {
		s.text.WriteString(text)
	}
	if !w.deltasWaiting {
		w.deltasWaiting = true
		w.signal() // the writer goroutine arms its flush timer
	}
}

// DiscardDelta forgets everything streamed so far for streamID, as when a
// failed request is retried and its partial answer dropped: unflushed text is
// dropped, and if some was already written a discard record follows.
func (w *Writer) DiscardDelta(streamID string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closing || w.err != nil {
		return
	}
	w.dropStreamLocked(streamID)
	if w.flushed[streamID] {
		delete(w.flushed, streamID)
		w.seq++
		w.queue = append(w.queue, Record{Seq: w.seq, T: stamp(w.now()), Body: AssistantDelta{Stream: streamID, Discard: true}})
		w.signal()
	}
}

// Sync writes every queued record and streamed text, fsyncs the file, and
// waits for both. Call it at the end of a turn and after each tool result.
func (w *Writer) Sync() error {
	return w.await(true)
}

// Written writes every queued record to the file, without fsync and
// without flushing streamed text early, and returns the error writing met,
// if any: a cheap check that the log still takes what is appended, for
// before a model request or a tool call.
func (w *Writer) Written() error {
	return w.await(false)
}

// await hands the queue to the writer goroutine and waits for its answer;
// with fsync, streamed text is written and the file synced as well.
func (w *Writer) await(fsync bool) error {
	w.mu.Lock()
	if w.err != nil {
		defer w.mu.Unlock()
		return w.err
	}
	if w.closing {
		w.mu.Unlock()
		return ErrClosed
	}
	if fsync {
		w.flushDeltasLocked()
	}
	reply := make(chan error, 1)
	w.syncs = append(w.syncs, syncRequest{reply: reply, fsync: fsync})
	w.signal()
	w.mu.Unlock()
	return <-reply
}

// Close writes what is queued, including streamed text, fsyncs and closes
// the file, and stops the writer goroutine. It returns the first error
// writing met. Calling it again returns nil.
func (w *Writer) Close() error {
	w.mu.Lock()
	if w.closing {
		w.mu.Unlock()
		<-w.done
		return nil
	}
	w.closing = true
	w.flushDeltasLocked()
	w.signal()
	w.mu.Unlock()
	<-w.done
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.err
}

// signal wakes the writer goroutine without ever blocking.
func (w *Writer) signal() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *Writer) streamLocked(id string) *stream {
	for _, s := range w.streams {
		if s.id == id {
			return s
		}
	}
	s := &stream{id: id}
	w.streams = append(w.streams, s)
	return s
}

func (w *Writer) dropStreamLocked(id string) {
	for i, s := range w.streams {
		if s.id == id {
			w.streams = append(w.streams[:i], w.streams[i+1:]...)
			break
		}
	}
	w.deltasWaiting = len(w.streams) > 0
}

// flushDeltasLocked turns the unflushed text of every stream into
// assistant_delta records at the end of the queue.
func (w *Writer) flushDeltasLocked() {
	if !w.deltasWaiting {
		return
	}
	t := stamp(w.now())
	for _, s := range w.streams {
		w.seq++
		w.queue = append(w.queue, Record{Seq: w.seq, T: t, Body: AssistantDelta{Stream: s.id, Text: s.text.String(), Reasoning: s.reasoning.String()}})
		w.flushed[s.id] = true
	}
	clear(w.streams)
	w.streams = w.streams[:0]
	w.deltasWaiting = false
}

// run is the writer goroutine: it writes batches of queued records, flushes
// streamed text on its timer, answers Sync, and ends on Close.
func (w *Writer) run() {
	defer close(w.done)
	if w.dirSynced != nil {
		// The folder's sync ends before the Writer does, synced or not.
		defer func() { <-w.dirSynced }()
	}
	// dirty says the file holds bytes not yet synced: the header of a
	// created log, then each batch written. A Sync or Close with nothing
	// new skips the fsync (a headless run's Close follows its turn's Sync).
	dirty := w.syncDir != ""
	timer := time.NewTimer(w.every)
	timer.Stop()
	defer timer.Stop()
	armed := false
	enc := newEncoder()
	var buf []byte
	for {
		due := false
		select {
		case <-w.wake:
		case <-timer.C:
			armed, due = false, true
		}

		w.mu.Lock()
		if due {
			w.flushDeltasLocked()
		}
		if w.deltasWaiting && !armed {
			timer.Reset(w.every)
			armed = true
		}
		batch := w.queue
		w.queue = w.spare[:0]
		w.spare = nil
		syncs := w.syncs
		w.syncs = nil
		closing := w.closing
		failed := w.err != nil
		w.mu.Unlock()

		fsync := closing
		for _, s := range syncs {
			fsync = fsync || s.fsync
		}
		var err error
		if !failed {
			err = w.write(enc, &buf, batch)
			dirty = dirty || len(batch) > 0
			if err == nil && fsync && dirty {
				err = w.out.Sync()
				dirty = err != nil
				if err == nil && w.syncDir != "" {
					<-w.dirSynced // started with the Writer; done by now, or soon
					w.syncDir = ""
				}
			}
		}
		if closing {
			if cerr := w.out.Close(); err == nil && cerr != nil {
				err = fmt.Errorf("close session file: %w", cerr)
			}
		}

		w.mu.Lock()
		if err != nil && w.err == nil {
			w.err = err
		}
		result := w.err
		if cap(batch) <= 4096 { // keep a small batch's array; let a huge one go
			clear(batch)
			w.spare = batch[:0]
		}
		w.mu.Unlock()
		for _, s := range syncs {
			s.reply <- result
		}
		if closing {
			return
		}
	}
}

// write encodes a batch and hands it to the file in one call.
func (w *Writer) write(enc *encoder, buf *[]byte, batch []Record) error {
	if len(batch) == 0 {
		return nil
	}
	b := (*buf)[:0]
	for _, r := range batch {
		var err error
		if b, err = enc.appendRecord(b, r); err != nil {
			return err
		}
	}
	markFolder(w.folder)
	_, err := w.out.Write(b)
	markFolder(w.folder)
	*buf = b
	if cap(b) > 1<<20 {
		*buf = nil // do not hold on to the memory of one huge batch
	}
	if err != nil {
		return fmt.Errorf("write session %s: %w", w.path, err)
	}
	return nil
}
