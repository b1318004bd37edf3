package session

import (
	"reflect"
	"testing"
	"time"
)

// TestIndexCodec checks that the index reads back what was written, zones
// and empty fields included, and that a cut or altered file is refused
// rather than misread.
func TestIndexCodec(t *testing.T) {
	t.Parallel()
	mod := time.Date(2026, 3, 4, 10, 0, 0, 123, time.Local)
	east := time.Date(2026, 3, 4, 9, 0, 0, 0, time.FixedZone("", 2*3600))
	ix := index{
		"/h/sessions/2026/03/04/100000-aaaa.jsonl": {Size: 1234, ModTime: mod, Info: Info{
			ID: "aaaa", Path: "/h/sessions/2026/03/04/100000-aaaa.jsonl", Created: east, Updated: mod,
			Workspace: "/w", Model: "m", Parent: "pppp", Title: "a title…", Prompt: "a prompt\twith tab", Messages: 7,
		}},
		"/h/sessions/2026/03/04/110000-bbbb.jsonl": {Size: 0, Info: Info{ID: "bbbb", Path: "/elsewhere.jsonl", Problem: "broken"}},
	}
	data, err := encodeIndex(ix)
	if err != nil {
		t.Fatal(err)
	}
	got, err := decodeIndex(append([]byte(nil), data...))
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(ix) {
		t.Fatalf("read %d entries, wrote %d", len(got), len(ix))
	}
	for p, want := range ix {
		g := got[p]
		if !g.ModTime.Equal(want.ModTime) || !g.Info.Created.Equal(want.Info.Created) || !g.Info.Updated.Equal(want.Info.Updated) {
			t.Errorf("%s: times %v %v %v, want %v %v %v", p, g.ModTime, g.Info.Created, g.Info.Updated, want.ModTime, want.Info.Created, want.Info.Updated)
		}
		_, gotOff := g.Info.Created.Zone()
		_, wantOff := want.Info.Created.Zone()
		if gotOff != wantOff {
			t.Errorf("%s: created offset %d, want %d", p, gotOff, wantOff)
		}
		g.ModTime, want.ModTime = time.Time{}, time.Time{}
		g.Info.Created, g.Info.Updated, want.Info.Created, want.Info.Updated = time.Time{}, time.Time{}, time.Time{}, time.Time{}
		if !reflect.DeepEqual(g, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", p, g, want)
		}
	}
	for n := range len(data) {
		if _, err := decodeIndex(append([]byte(nil), data[:n]...)); err == nil {
			t.Fatalf("a file cut to %d of %d bytes was read as an index", n, len(data))
		}
	}
	for _, bad := range [][]byte{nil, []byte("not an index"), append(append([]byte(nil), data...), 0)} {
		if _, err := decodeIndex(bad); err == nil {
			t.Errorf("%q was read as an index", bad)
		}
	}
}
