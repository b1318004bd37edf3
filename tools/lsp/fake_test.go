package lsp

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/sourcegraph/jsonrpc2"
)

// The scripted fake language server: the test binary itself, started with
// TERN_LSP_FAKE set to a mode.
//
//	normal    answers; every line holding ERR is an error, WARN a warning;
//	          each change is reported twice, first partly (errors only)
//	          then in full 100 ms later; "BREAK name" also reports an error
//	          in the file name beside it
//	hang      reads everything and never answers
//	mute      initializes, then never reports
//	refuse    answers initialize with an error
//	crash     exits at the first document it is sent
//	crashonce exits at the first document of its first run (a marker file
//	          in TERN_LSP_FAKE_DIR tells the runs apart)
//	stubborn  normal, but ignores shutdown and exit
//
// Once initialized, in normal mode, it reports on the *.fake files in its
// root folder.
const fakeEnv = "TERN_LSP_FAKE"

// runFake serves the fake on stdin and stdout until stdin closes.
func runFake(mode string) {
	if mode == "hang" {
		_, _ = io.Copy(io.Discard, os.Stdin)
		return
	}
	if mode == "crashonce" {
		marker := os.Getenv("TERN_LSP_FAKE_DIR") + "/ran"
		if _, err := os.Stat(marker); err == nil {
			mode = "normal"
		} else {
			_ = os.WriteFile(marker, nil, 0o600)
			mode = "crash"
		}
	}
	done := make(chan struct{})
	var once sync.Once
	f := &fake{mode: mode}
	h := jsonrpc2.HandlerWithError(func(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
		return f.handle(ctx, conn, req, func() { once.Do(func() { close(done) }) })
	})
	conn := jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(stdio{}, jsonrpc2.VSCodeObjectCodec{}), h)
	select {
	case <-conn.DisconnectNotify():
	case <-done:
	}
}

// stdio is the fake's connection.
type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error                { return nil }

// fake is the fake server's state.
type fake struct {
	mode string
	root string
}

func (f *fake) handle(_ context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request, exit func()) (any, error) {
	switch req.Method {
	case "initialize":
		if f.mode == "refuse" {
			return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError, Message: "no workspace here"}
		}
		var p struct {
			RootURI string `json:"rootUri"`
		}
		_ = json.Unmarshal(*req.Params, &p)
		f.root = p.RootURI
		return map[string]any{"capabilities": map[string]any{"textDocumentSync": 1}}, nil
	case "initialized":
		// Like gopls, a report on the workspace's files once loaded.
		if f.mode != "normal" {
			return nil, nil
		}
		matches, _ := filepath.Glob(filepath.Join(uriPath(f.root), "*.fake"))
		for _, m := range matches {
			if data, err := os.ReadFile(m); err == nil {
				go f.publish(conn, fileURI(m), string(data))
			}
		}
	case "shutdown":
		if f.mode == "stubborn" {
			select {} // never answers
		}
		return nil, nil
	case "exit":
		if f.mode != "stubborn" {
			exit()
		}
		return nil, nil
	case "textDocument/didOpen", "textDocument/didChange":
		switch f.mode {
		case "crash":
			os.Exit(3)
		case "mute":
			return nil, nil
		}
		var p struct {
			TextDocument struct {
				URI     string `json:"uri"`
				Version int    `json:"version"`
				Text    string `json:"text"`
			} `json:"textDocument"`
			ContentChanges []struct {
				Text string `json:"text"`
			} `json:"contentChanges"`
		}
		_ = json.Unmarshal(*req.Params, &p)
		text := p.TextDocument.Text
		if len(p.ContentChanges) > 0 {
			text = p.ContentChanges[len(p.ContentChanges)-1].Text
		}
		go f.publish(conn, p.TextDocument.URI, text)
	}
	return nil, nil
}

// publish reports on text: errors first, then everything.
func (f *fake) publish(conn *jsonrpc2.Conn, uri, text string) {
	var errs, all []lspDiagnostic
	other := ""
	for i, line := range strings.Split(text, "\n") {
		d := lspDiagnostic{Range: lspRange{Start: position{Line: i, Character: max(0, strings.Index(line, "ERR"))}}}
		switch {
		case strings.Contains(line, "ERR"):
			d.Severity, d.Message = 1, "bad thing: "+strings.TrimSpace(line)
			errs = append(errs, d)
			all = append(all, d)
		case strings.Contains(line, "WARN"):
			d.Severity, d.Message = 2, "doubtful thing"
			all = append(all, d)
		}
		if _, name, ok := strings.Cut(line, "BREAK "); ok {
			other = name
		}
	}
	ctx := context.Background()
	_ = conn.Notify(ctx, "textDocument/publishDiagnostics", publishDiagnosticsParams{URI: uri, Diagnostics: nonNil(errs)})
	time.Sleep(100 * time.Millisecond)
	_ = conn.Notify(ctx, "textDocument/publishDiagnostics", publishDiagnosticsParams{URI: uri, Diagnostics: nonNil(all)})
	if other != "" {
		o := uri[:strings.LastIndexByte(uri, '/')+1] + other
		_ = conn.Notify(ctx, "textDocument/publishDiagnostics", publishDiagnosticsParams{URI: o, Diagnostics: []lspDiagnostic{
			{Range: lspRange{Start: position{Line: 4, Character: 1}}, Severity: 1, Message: "caller broken"}}})
	}
}

func nonNil(ds []lspDiagnostic) []lspDiagnostic {
	if ds == nil {
		return []lspDiagnostic{}
	}
	return ds
}
