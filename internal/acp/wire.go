package acp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
)

// maxLine bounds one incoming message. The SDK's reader gives up on the
// whole connection past its own limit (10 MiB); tern refuses the one line.
const maxLine = 8 << 20

// wireWriter serializes whole JSON-RPC lines onto the client's stdin: the
// SDK's writes and tern's own (parse errors, fast-path notifications) never
// interleave. afterResult runs a function once the response carrying a
// session id has gone out, so the notifications of a new session follow
// its session/new response.
type wireWriter struct {
	mu    sync.Mutex
	w     io.Writer
	hooks map[string]func()
}

func newWireWriter(w io.Writer) *wireWriter {
	return &wireWriter{w: w, hooks: map[string]func(){}}
}

// Write writes one line as a whole.
func (w *wireWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	n, err := w.w.Write(p)
	var run func()
	if len(w.hooks) > 0 && isResult(p) {
		for id, f := range w.hooks {
			if bytes.Contains(p, []byte(`"sessionId":`+quoteJSON(id))) {
				run = f
				delete(w.hooks, id)
				break
			}
		}
	}
	w.mu.Unlock()
	if run != nil {
		// Not here: the SDK holds its own write lock around this Write.
		go run()
	}
	return n, err
}

// afterResult runs f, on a goroutine of its own, once the response holding
// session id is written.
func (w *wireWriter) afterResult(id string, f func()) {
	w.mu.Lock()
	w.hooks[id] = f
	w.mu.Unlock()
}

// isResult reports whether line is a response with a result (the SDK
// writes "jsonrpc", "id", then "result").
func isResult(line []byte) bool {
	i := bytes.Index(line, []byte(`,"result":`))
	return i > 0 && !bytes.Contains(line[:i], []byte(`"method"`))
}

func quoteJSON(s string) string {
	b, err := json.Marshal(s)
	if err != nil {
		return `""`
	}
	return string(b)
}

// rpcError is a JSON-RPC error response tern writes itself.
type rpcError struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Error   struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
		Data    any    `json:"data,omitempty"`
	} `json:"error"`
}

// envelope is what the filter checks of each incoming message.
type envelope struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  *string         `json:"method"`
	Result  json.RawMessage `json:"result"`
	Error   json.RawMessage `json:"error"`
}

// filterInput passes the well-formed messages of in to the SDK (the
// returned reader) and answers the rest itself: a line that is not JSON
// gets -32700 (the SDK would drop it silently, leaving the client waiting),
// one that is not a JSON-RPC 2.0 message gets -32600, a line too long
// -32600 without ending the connection. The returned reader ends when in
// does; done is closed then.
func filterInput(in io.Reader, w *wireWriter) (r io.Reader, done <-chan struct{}) {
	pr, pw := io.Pipe()
	d := make(chan struct{})
	go func() {
		defer close(d)
		br := bufio.NewReaderSize(in, 64<<10)
		for {
			line, err := readLine(br)
			if len(bytes.TrimSpace(line)) > 0 {
				if ok := checkLine(line, w); ok {
					if _, werr := pw.Write(append(line, '\n')); werr != nil {
						return
					}
				}
			}
			if err != nil {
				_ = pw.CloseWithError(eofOr(err))
				return
			}
		}
	}()
	return pr, d
}

// readLine reads one line without its newline; a line past maxLine is
// consumed and returned as tooLongMarker.
func readLine(br *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if len(line)+len(chunk) > maxLine {
			line = append(line[:0], tooLongMarker...)
			// Skip the rest of the line.
			for errors.Is(err, bufio.ErrBufferFull) {
				_, err = br.ReadSlice('\n')
			}
			return line, err
		}
		line = append(line, chunk...)
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return bytes.TrimRight(line, "\r\n"), err
	}
}

// tooLongMarker stands for a line that was too long; it is not JSON, and
// checkLine tells it from one.
var tooLongMarker = []byte("\x00too long")

// checkLine reports whether line may go to the SDK, answering it otherwise.
func checkLine(line []byte, w *wireWriter) bool {
	if bytes.Equal(line, tooLongMarker) {
		writeError(w, nil, -32600, "Invalid request", map[string]any{"error": fmt.Sprintf("message longer than %d bytes", maxLine)})
		return false
	}
	if !json.Valid(line) {
		writeError(w, nil, -32700, "Parse error", map[string]any{"error": "the message is not valid JSON"})
		return false
	}
	var env envelope
	if err := json.Unmarshal(line, &env); err != nil {
		writeError(w, nil, -32600, "Invalid request", map[string]any{"error": "a message must be a JSON object"})
		return false
	}
	if env.JSONRPC != "2.0" {
		writeError(w, env.ID, -32600, "Invalid request", map[string]any{"field": "jsonrpc", "error": `jsonrpc must be "2.0"`})
		return false
	}
	if env.Method == nil && len(env.ID) == 0 {
		writeError(w, nil, -32600, "Invalid request", map[string]any{"field": "method", "error": "a message needs a method or an id"})
		return false
	}
	if env.Method == nil && env.Result == nil && env.Error == nil {
		writeError(w, env.ID, -32600, "Invalid request", map[string]any{"field": "method", "error": "a request needs a method"})
		return false
	}
	return true
}

func writeError(w *wireWriter, id json.RawMessage, code int, msg string, data any) {
	e := rpcError{JSONRPC: "2.0", ID: id}
	if len(e.ID) == 0 {
		e.ID = json.RawMessage("null")
	}
	e.Error.Code, e.Error.Message, e.Error.Data = code, msg, data
	b, err := json.Marshal(e)
	if err != nil {
		return
	}
	_, _ = w.Write(append(b, '\n')) // a client that is gone reads nothing anyway
}

func eofOr(err error) error {
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}
