package tools

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// symlinkPrefix marks a toolTree entry that is a symlink to the rest of the
// value instead of a file.
const symlinkPrefix = "symlink:"

// toolTree creates a workspace holding files (content by slash-separated
// relative path; "symlink:target" makes a symlink) and returns it together
// with a directory outside it that holds outside.txt and a subdirectory.
func toolTree(t *testing.T, files map[string]string) (w *Workspace, outside string) {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "ws")
	outside = filepath.Join(base, "outside")
	for _, d := range []string{root, filepath.Join(outside, "dir")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for name, data := range map[string]string{"outside.txt": "outside secret\n", "dir/inner.txt": "outside inner\n"} {
		if err := os.WriteFile(filepath.Join(outside, filepath.FromSlash(name)), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for rel, content := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if target, ok := strings.CutPrefix(content, symlinkPrefix); ok {
			target = strings.ReplaceAll(target, "$OUTSIDE", outside)
			if err := os.Symlink(filepath.FromSlash(target), p); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if strings.HasSuffix(rel, "/") {
			continue // a directory, made above
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	w, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	return w, outside
}

// callTool runs a tool with args given as a map.
func callTool(t *testing.T, tool Tool, args map[string]any) Result {
	t.Helper()
	if args == nil {
		args = map[string]any{}
	}
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	if err := Validate(tool.Spec().Parameters, raw); err != nil {
		t.Fatalf("arguments %s fail the schema: %v", raw, err)
	}
	return tool.Run(context.Background(), raw, nil)
}

// numbered renders lines the way read_file does, starting at first.
func numbered(first int, lines ...string) string {
	var b strings.Builder
	for i, l := range lines {
		fmt.Fprintf(&b, "%6d\t%s\n", first+i, l)
	}
	return b.String()
}

func manyLines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	return b.String()
}

func TestReadFile(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 2500)
	wide := strings.Repeat("é", 2100)
	files := map[string]string{
		"a.txt":          "one\ntwo\nthree\n",
		"noeol.txt":      "one\ntwo",
		"crlf.txt":       "one\r\ntwo\r\n",
		"empty.txt":      "",
		"ten.txt":        manyLines(10),
		"big.txt":        manyLines(2500),
		"long.txt":       "short\n" + long + "\n",
		"wide.txt":       wide + "\n",
		"dir/nested.go":  "package dir\n",
		"bin.dat":        "ELF\x00\x01\x02rest",
		"latin1.txt":     strings.Repeat("caf\xe9 na\xefve \xe0 \xe9t\xe9 ", 50),
		"mostly.txt":     "caf\xe9 is fine\n" + strings.Repeat("plain ascii text ", 40),
		".env":           "KEY=1\n",
		".env.local":     "KEY=2\n",
		".env.example":   "KEY=\n",
		"config/id_rsa":  "-----BEGIN-----\n",
		"certs/x.pem":    "-----BEGIN CERT-----\n",
		".netrc":         "machine x\n",
		"innocent.txt":   symlinkPrefix + ".env",
		"inside-link":    symlinkPrefix + "a.txt",
		"out-file-link":  symlinkPrefix + "$OUTSIDE/outside.txt",
		"out-dir-link":   symlinkPrefix + "$OUTSIDE/dir",
		"dangling-out":   symlinkPrefix + "$OUTSIDE/nothing-here",
		"sub/escape.txt": symlinkPrefix + "../../outside/outside.txt",
	}
	w, outside := toolTree(t, files)
	w.OutputCap = 1 << 20
	tests := []struct {
		name    string
		args    map[string]any
		want    string // exact output, if set
		has     []string
		hasNot  []string
		err     bool
		summary string
	}{
		{name: "whole file", args: map[string]any{"path": "a.txt"}, want: numbered(1, "one", "two", "three"), summary: "3 lines"},
		{name: "absolute inside", args: map[string]any{"path": filepath.Join(w.Root, "a.txt")}, want: numbered(1, "one", "two", "three")},
		{name: "dot segments inside", args: map[string]any{"path": "dir/../a.txt"}, want: numbered(1, "one", "two", "three")},
		{name: "no final newline", args: map[string]any{"path": "noeol.txt"}, want: numbered(1, "one", "two"), summary: "2 lines"},
		{name: "crlf shown without CR", args: map[string]any{"path": "crlf.txt"}, want: numbered(1, "one", "two")},
		{name: "empty", args: map[string]any{"path": "empty.txt"}, want: "(empty file)", summary: "0 lines"},
		{name: "nested", args: map[string]any{"path": "dir/nested.go"}, want: numbered(1, "package dir"), summary: "1 line"},
		{name: "offset and limit", args: map[string]any{"path": "ten.txt", "offset": 3, "limit": 2},
			want:    numbered(3, "line 3", "line 4") + "\n[showing lines 3-4 of 10; call read_file with offset=5 to read more]",
			summary: "lines 3-4 of 10"},
		{name: "offset to the end", args: map[string]any{"path": "ten.txt", "offset": 9}, want: numbered(9, "line 9", "line 10")},
		{name: "offset past end", args: map[string]any{"path": "ten.txt", "offset": 11}, err: true, has: []string{"past the end", "10 lines"}},
		{name: "default limit 2000", args: map[string]any{"path": "big.txt"},
			has:     []string{"  2000\tline 2000\n", "[showing lines 1-2000 of 2500; call read_file with offset=2001 to read more]"},
			hasNot:  []string{"line 2001\n"},
			summary: "lines 1-2000 of 2500"},
		{name: "long line cut", args: map[string]any{"path": "long.txt"},
			has: []string{"     1\tshort\n", "     2\t" + strings.Repeat("x", 2000) + "… [line cut: 500 more chars]\n"}},
		{name: "long multibyte line cut on a character", args: map[string]any{"path": "wide.txt"},
			has: []string{strings.Repeat("é", 2000) + "… [line cut: 100 more chars]"}},
		{name: "inside symlink", args: map[string]any{"path": "inside-link"}, want: numbered(1, "one", "two", "three")},
		{name: "directory", args: map[string]any{"path": "dir"}, err: true, has: []string{"is a directory", "list_files"}},
		{name: "missing", args: map[string]any{"path": "nope.txt"}, err: true, has: []string{"does not exist"}},
		{name: "binary NUL", args: map[string]any{"path": "bin.dat"}, err: true, has: []string{"binary", "NUL"}},
		{name: "mostly invalid UTF-8", args: map[string]any{"path": "latin1.txt"}, err: true, has: []string{"binary", "UTF-8"}},
		{name: "a stray invalid byte is still text", args: map[string]any{"path": "mostly.txt"}, has: []string{"is fine"}},
		{name: "escape with ..", args: map[string]any{"path": "../outside/outside.txt"}, err: true, has: []string{"outside the workspace"}, hasNot: []string{"outside secret"}},
		{name: "absolute outside", args: map[string]any{"path": filepath.Join(outside, "outside.txt")}, err: true, has: []string{"outside the workspace"}},
		{name: "absolute system file", args: map[string]any{"path": "/etc/passwd"}, err: true, has: []string{"outside the workspace"}},
		{name: "symlinked file outside", args: map[string]any{"path": "out-file-link"}, err: true, has: []string{"outside the workspace"}, hasNot: []string{"outside secret"}},
		{name: "relative symlink climbing out", args: map[string]any{"path": "sub/escape.txt"}, err: true, has: []string{"outside the workspace"}},
		{name: "file in symlinked dir outside", args: map[string]any{"path": "out-dir-link/inner.txt"}, err: true, has: []string{"outside the workspace"}},
		{name: "new file under symlinked dir outside", args: map[string]any{"path": "out-dir-link/new/file.txt"}, err: true, has: []string{"outside the workspace"}},
		{name: "dangling symlink pointing outside", args: map[string]any{"path": "dangling-out"}, err: true, has: []string{"outside the workspace"}},
		{name: "secret .env", args: map[string]any{"path": ".env"}, err: true, has: []string{"secret", "configurable"}, hasNot: []string{"KEY"}},
		{name: "secret .env.local", args: map[string]any{"path": ".env.local"}, err: true, has: []string{"secret"}},
		{name: ".env.example allowed", args: map[string]any{"path": ".env.example"}, want: numbered(1, "KEY=")},
		{name: "secret id_rsa", args: map[string]any{"path": "config/id_rsa"}, err: true, has: []string{"secret"}},
		{name: "secret pem", args: map[string]any{"path": "certs/x.pem"}, err: true, has: []string{"secret"}},
		{name: "secret netrc", args: map[string]any{"path": ".netrc"}, err: true, has: []string{"secret"}},
		{name: "secret behind an innocent symlink", args: map[string]any{"path": "innocent.txt"}, err: true, has: []string{"secret"}, hasNot: []string{"KEY"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := callTool(t, NewReadFile(w), tt.args)
			if tt.err != (r.Status == StatusError) {
				t.Fatalf("status %v, output:\n%s", r.Status, r.Output)
			}
			if tt.want != "" && r.Output != tt.want {
				t.Errorf("output:\n%q\nwant:\n%q", r.Output, tt.want)
			}
			for _, h := range tt.has {
				if !strings.Contains(r.Output, h) {
					t.Errorf("output lacks %q:\n%.600s", h, r.Output)
				}
			}
			for _, h := range tt.hasNot {
				if strings.Contains(r.Output, h) {
					t.Errorf("output has %q:\n%.600s", h, r.Output)
				}
			}
			if tt.summary != "" && r.Summary != tt.summary {
				t.Errorf("summary %q, want %q", r.Summary, tt.summary)
			}
			if !utf8.ValidString(r.Output) && !strings.Contains(tt.name, "UTF-8") && tt.name != "a stray invalid byte is still text" {
				t.Errorf("output is not valid UTF-8")
			}
		})
	}
}

func TestReadFileOutputCap(t *testing.T) {
	t.Parallel()
	w, _ := toolTree(t, map[string]string{"big.txt": manyLines(500), "long.txt": strings.Repeat("y", 1900) + "\n"})
	w.OutputCap = 1000
	r := callTool(t, NewReadFile(w), map[string]any{"path": "big.txt"})
	if r.Status != StatusOK || len(r.Output) > 1000 {
		t.Fatalf("status %v, %d bytes:\n%s", r.Status, len(r.Output), r.Output)
	}
	if !strings.Contains(r.Output, "output limit of 1000 B reached); call read_file with offset=") {
		t.Errorf("no note about the limit:\n%s", r.Output)
	}
	// The note's offset continues right after the last line shown.
	lines := strings.Split(r.Output, "\n")
	var last int
	for _, l := range lines {
		var n int
		if _, err := fmt.Sscanf(l, "%d\t", &n); err == nil {
			last = n
		}
	}
	if want := fmt.Sprintf("offset=%d ", last+1); !strings.Contains(r.Output, want) {
		t.Errorf("last line %d, note does not say %q:\n%s", last, want, r.Output)
	}

	// A single line longer than the cap is still capped, with a marker.
	r = callTool(t, NewReadFile(w), map[string]any{"path": "long.txt"})
	if len(r.Output) > 1000 || !strings.Contains(r.Output, "left out") {
		t.Errorf("%d bytes:\n%s", len(r.Output), r.Output)
	}
}

func TestReadFileRecordsContent(t *testing.T) {
	t.Parallel()
	w, _ := toolTree(t, map[string]string{"a.txt": "hello\n", "bin": "\x00\x00"})
	abs := filepath.Join(w.Root, "a.txt")
	if w.Files.Seen(abs) {
		t.Fatal("seen before reading")
	}
	// Even a partial read records the whole content.
	if r := callTool(t, NewReadFile(w), map[string]any{"path": "a.txt", "limit": 1}); r.Status != StatusOK {
		t.Fatal(r.Output)
	}
	if !w.Files.Seen(abs) || w.Files.Changed(abs, []byte("hello\n")) {
		t.Error("read did not record the content")
	}
	if !w.Files.Changed(abs, []byte("hello again\n")) {
		t.Error("different content not reported as changed")
	}
	callTool(t, NewReadFile(w), map[string]any{"path": "bin"})
	if w.Files.Seen(filepath.Join(w.Root, "bin")) {
		t.Error("a refused read was recorded")
	}
}

func TestReadFilePreviewAndSpec(t *testing.T) {
	t.Parallel()
	w, _ := toolTree(t, map[string]string{"dir/a.txt": "x\n"})
	tool := NewReadFile(w)
	p, err := tool.Preview(context.Background(), json.RawMessage(`{"path":"./dir/a.txt"}`))
	if err != nil || p.Title != "read dir/a.txt" {
		t.Errorf("preview %+v, %v", p, err)
	}
	if tool.Kind() != KindRead || tool.Spec().Name != "read_file" {
		t.Errorf("kind %v, name %q", tool.Kind(), tool.Spec().Name)
	}
	if _, err := tool.Preview(context.Background(), json.RawMessage(`{"path":`)); err == nil {
		t.Error("broken arguments gave no preview error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if r := tool.Run(ctx, json.RawMessage(`{"path":"dir/a.txt"}`), nil); r.Status != StatusCancelled {
		t.Errorf("cancelled read: %v", r.Status)
	}
}

func TestReadLongLine(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("ab", 100)
	in := "short\n" + long + "\n" + "é" + strings.Repeat("é", 30) + "\nlast"
	br := bufio.NewReaderSize(strings.NewReader(in), 16)
	type got struct {
		line    string
		dropped int
	}
	var all []got
	for {
		line, dropped, err := readLongLine(br, 21)
		if len(line) > 0 || dropped > 0 || err == nil {
			all = append(all, got{string(line), dropped})
		}
		if err != nil {
			break
		}
	}
	want := []got{
		{"short", 0},
		{long[:21], 179},
		{strings.Repeat("é", 10), 21}, // 21 bytes keep 10 two-byte characters
		{"last", 0},
	}
	if fmt.Sprint(all) != fmt.Sprint(want) {
		t.Errorf("got %v\nwant %v", all, want)
	}
}

func TestBinaryReason(t *testing.T) {
	t.Parallel()
	// A multi-byte character cut by the end of the 8 KiB sample is text.
	data := []byte(strings.Repeat("a", binarySniffLen-1) + "é and more")
	if why := binaryReason(data); why != "" {
		t.Errorf("text cut mid-character reported as binary: %s", why)
	}
	if binaryReason([]byte("plain")) != "" || binaryReason(nil) != "" {
		t.Error("plain text reported as binary")
	}
}

func TestResolveDanglingLinkInSymlinkedDir(t *testing.T) {
	t.Parallel()
	w, outside := toolTree(t, map[string]string{"out-dir-link": symlinkPrefix + "$OUTSIDE/dir"})
	// outside/dir/rel points at outside/nothing; resolving "../nothing"
	// against the link's lexical parent would wrongly land inside.
	if err := os.Symlink("../nothing", filepath.Join(outside, "dir", "rel")); err != nil {
		t.Fatal(err)
	}
	_, rel, err := w.Resolve("out-dir-link/rel")
	if err == nil || !strings.Contains(err.Error(), "outside the workspace") {
		t.Errorf("resolved to %q, err %v; want refusal", rel, err)
	}
	// A dangling link inside the workspace resolves to its target.
	if err := os.Symlink("sub/../new.txt", filepath.Join(w.Root, "inner-dangling")); err != nil {
		t.Fatal(err)
	}
	if _, rel, err := w.Resolve("inner-dangling"); err != nil || rel != "new.txt" {
		t.Errorf("inner dangling link: %q, %v", rel, err)
	}
}

// TestReadFileStreamsLargeFiles lowers the size above which read_file
// streams a file instead of loading it, and checks the window it shows.
func TestReadFileStreamsLargeFiles(t *testing.T) {
	t.Parallel()
	w, _ := toolTree(t, map[string]string{
		"big.txt":  manyLines(100),
		"long.txt": "a\n" + strings.Repeat("z", 9000) + "\nb\r\n",
		"bin.dat":  strings.Repeat("\x00", 500),
	})
	w.OutputCap = 1 << 20
	tool := &readFileTool{w: w, wholeMax: 50}
	run := func(args string) Result { return tool.Run(context.Background(), json.RawMessage(args), nil) }

	r := run(`{"path":"big.txt","offset":10,"limit":3}`)
	want := numbered(10, "line 10", "line 11", "line 12") +
		"\n[showing lines 10-12; call read_file with offset=13 to read more]" +
		"\n[big.txt is 792 B, too large to read whole; read_file shows it a window at a time]"
	if r.Status != StatusOK || r.Output != want {
		t.Errorf("output:\n%s\nwant:\n%s", r.Output, want)
	}
	if r.Summary != "lines 10-12" {
		t.Errorf("summary %q", r.Summary)
	}
	if w.Files.Seen(filepath.Join(w.Root, "big.txt")) {
		t.Error("a streamed file was recorded although its content was not all read")
	}
	r = run(`{"path":"long.txt"}`)
	if !strings.Contains(r.Output, numbered(1, "a")+"     2\t"+strings.Repeat("z", 2000)+"… [line cut: 7000 more chars]\n"+numbered(3, "b")) {
		t.Errorf("output:\n%.300s", r.Output)
	}
	if r := run(`{"path":"big.txt","offset":101}`); r.Status != StatusError || !strings.Contains(r.Output, "past the end") {
		t.Errorf("offset past the end: %v %s", r.Status, r.Output)
	}
	if r := run(`{"path":"bin.dat"}`); r.Status != StatusError || !strings.Contains(r.Output, "binary") {
		t.Errorf("binary: %v %s", r.Status, r.Output)
	}
}

// TestReadFileImage: read_file on a picture says what it is instead of
// refusing it as binary, and carries the picture for a model that takes
// images.
func TestReadFileImage(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 12, 7))); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "shot.png"), b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	w, err := NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	r := NewReadFile(w).Run(context.Background(), json.RawMessage(`{"path":"shot.png"}`), nil)
	if r.Status != StatusOK || !strings.Contains(r.Output, "shot.png is an image (PNG, 12×7 pixels") || r.Summary != "image 12×7" {
		t.Errorf("%v %q %q", r.Status, r.Output, r.Summary)
	}
	if len(r.Images) != 1 || r.Images[0].MediaType != "image/png" || r.Images[0].Width != 12 ||
		!bytes.Equal(r.Images[0].Data, b.Bytes()) || r.Images[0].Name != "shot.png" {
		t.Errorf("images %+v", r.Images)
	}
}
