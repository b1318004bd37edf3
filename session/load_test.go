package session

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ternhq/tern/provider"
)

const (
	hdr  = `{"type":"header","version":1,"id":"abc","tern_version":"t","created":"2026-01-02T03:04:05Z","workspace":"/w","model":"m","approval_policy":"ask","system_prompt":"","tools_hash":""}` + "\n"
	rec1 = `{"type":"user_message","t":"2026-01-02T03:04:05.000Z","seq":1,"turn":1,"text":"one"}` + "\n"
	rec2 = `{"type":"usage","t":"2026-01-02T03:04:06.000Z","seq":2,"prompt":3,"completion":4,"cached":0}` + "\n"
)

func writeFile(t *testing.T, content string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s.jsonl")
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadTornLastLine(t *testing.T) {
	t.Parallel()
	for name, tail := range map[string]string{
		"cut mid-record":          `{"type":"usage","t":"2026-01-02T03:04:07.000Z","seq":3,"prom`,
		"cut mid-prefix":          `{"ty`,
		"whole JSON, no newline":  `{"type":"usage","t":"2026-01-02T03:04:07.000Z","seq":3,"prompt":1,"completion":1,"cached":0}`,
		"invalid, then newline":   `{"type":"usage","t":"2026-01-02T03:04:07.000Z","seq":3,"pr` + "\n",
		"zeros after power loss":  "\x00\x00\x00\x00\n",
		"torn, then blank lines":  `{"type":"user_message","t":` + "\n\n  \n",
		"unknown type, cut short": `{"type":"from_the_future","t":"2026-01-02T03:04:07.000Z","seq":3,"x":`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := writeFile(t, hdr+rec1+rec2+tail)
			s, err := Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Records) != 2 || s.Records[1].Body != (Usage{Prompt: 3, Completion: 4}) {
				t.Fatalf("records before the torn line: %+v", s.Records)
			}
			if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], "line 4 was cut off") {
				t.Fatalf("warnings %q", s.Warnings)
			}
			// Resuming cuts the torn line off and continues after rec2.
			w, err := OpenAppend(path)
			if err != nil {
				t.Fatal(err)
			}
			if seq, err := w.Append(Grant{Scope: "edit"}); err != nil || seq != 3 {
				t.Fatalf("append after torn line: seq %d, %v", seq, err)
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			s, err = Load(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Records) != 3 || len(s.Warnings) != 0 {
				t.Fatalf("after resume: %d records, warnings %q", len(s.Records), s.Warnings)
			}
		})
	}
}

func TestLoadErrors(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct{ content, want string }{
		"invalid middle line": {hdr + rec1 + `{"type":"usage",` + "\n" + rec2, "s.jsonl:3: invalid record"},
		"no type in middle":   {hdr + `{"t":"2026-01-02T03:04:05Z","seq":1}` + "\n" + rec2, `s.jsonl:2: invalid record (no "type" field)`},
		"empty file":          {"", "empty session file"},
		"torn header":         {`{"type":"header","vers`, "header is incomplete"},
		"not a header":        {rec1 + rec2, `first line has type "user_message"`},
		"newer version":       {strings.Replace(hdr, `"version":1`, `"version":2`, 1), "version 2 is not supported"},
		"header not JSON":     {"hello\n", "s.jsonl:1: invalid session header"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			_, err := Load(writeFile(t, tc.content))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Load error %v, want it to contain %q", err, tc.want)
			}
		})
	}
}

func TestLoadTolerates(t *testing.T) {
	t.Parallel()
	content := hdr +
		// keys in another order (written by hand or another tool)
		`{"seq":1,"text":"one","type":"user_message","t":"2026-01-02T03:04:05Z"}` + "\n" +
		"\n" +
		`{"type":"from_the_future","t":"2026-01-02T03:04:06.000Z","seq":2,"x":1}` + "\n" +
		rec2
	s, err := Load(writeFile(t, content))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Records) != 2 || !reflect.DeepEqual(s.Records[0].Body, UserMessage{Text: "one"}) || s.Records[0].Seq != 1 {
		t.Fatalf("records %+v", s.Records)
	}
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], `unknown record type "from_the_future"`) {
		t.Fatalf("warnings %q", s.Warnings)
	}
}

// TestLoadAssemblesDeltas checks how delta records become messages: a
// finished stream is its message alone, an unfinished one is rebuilt from its
// deltas (after the last discard) where its last delta was.
func TestLoadAssemblesDeltas(t *testing.T) {
	t.Parallel()
	line := func(seq int, body string) string {
		return `{"type":"assistant_delta","t":"2026-01-02T03:04:05.000Z","seq":` + strconv.Itoa(seq) + `,` + body + "}\n"
	}
	content := hdr + rec1 +
		line(2, `"stream":"a","text":"Hel"`) +
		line(3, `"stream":"a","text":"lo"`) +
		`{"type":"assistant_message","t":"2026-01-02T03:04:05.000Z","seq":4,"stream":"a","text":"Hello"}` + "\n" +
		line(5, `"stream":"a","text":"stale"`) +
		line(6, `"stream":"b","text":"lost attempt"`) +
		line(7, `"stream":"b","discard":true`) +
		line(8, `"stream":"b","reasoning":"think","text":"Par"`) +
		`{"type":"usage","t":"2026-01-02T03:04:05.000Z","seq":9,"prompt":1,"completion":1,"cached":0}` + "\n" +
		line(10, `"stream":"b","text":"tial"`) +
		`{"type":"error","t":"2026-01-02T03:04:05.000Z","seq":11,"kind":"network","message":"reset"}` + "\n" +
		line(12, `"stream":"c","text":"only discarded"`) +
		line(13, `"stream":"c","discard":true`)
	s, err := Load(writeFile(t, content))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range s.Records {
		got = append(got, strconv.Itoa(int(r.Seq))+" "+mustJSON(t, r.Body))
	}
	want := []string{
		`1 {"turn":1,"text":"one"}`,
		`4 {"stream":"a","text":"Hello"}`,
		`9 {"prompt":1,"completion":1,"cached":0}`,
		`10 {"stream":"b","text":"Partial","reasoning":"think","interrupted":true}`,
		`11 {"kind":"network","message":"reset"}`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("records\n got %q\nwant %q", got, want)
	}
	if len(s.Warnings) != 1 || !strings.Contains(s.Warnings[0], `"b"`) {
		t.Fatalf("warnings %q", s.Warnings)
	}
}

func TestToolsHash(t *testing.T) {
	t.Parallel()
	a := []provider.ToolSpec{{Name: "read_file", Description: "Read a file.", Parameters: []byte(`{"type":"object"}`)}}
	spaced := []provider.ToolSpec{{Name: "read_file", Description: "Read a file.", Parameters: []byte("{ \"type\" : \"object\" }\n")}}
	renamed := []provider.ToolSpec{{Name: "read", Description: "Read a file.", Parameters: []byte(`{"type":"object"}`)}}
	two := append(append([]provider.ToolSpec{}, a...), renamed...)
	swapped := append(append([]provider.ToolSpec{}, renamed...), a...)
	if ToolsHash(a) != ToolsHash(spaced) {
		t.Error("whitespace in a schema changed the hash")
	}
	seen := map[string]bool{}
	for _, specs := range [][]provider.ToolSpec{nil, a, renamed, two, swapped} {
		h := ToolsHash(specs)
		if len(h) != 64 || seen[h] {
			t.Fatalf("hash %q of %v is malformed or not distinct", h, specs)
		}
		seen[h] = true
	}
}
