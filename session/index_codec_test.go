package session

import (
	"reflect"
	"testing"
	"time"
)

// TestIndexCodec checks that the index reads back what was written, zones,
// folder stamps and empty fields included, and that a cut or altered file
// is refused rather than misread.
func TestIndexCodec(t *testing.T) {
	t.Parallel()
	mod := time.Date(2026, 3, 4, 10, 0, 0, 123, time.Local)
	east := time.Date(2026, 3, 4, 9, 0, 0, 0, time.FixedZone("", 2*3600))
	utc := time.Date(2026, 3, 4, 8, 0, 0, 5e6, time.UTC)
	ix := index{folders: map[string]folderStamp{"2026/03/04": {ino: 77, ctime: mod.UnixNano(), mtime: mod.UnixNano() - 5}, "2026/03/05": {}}}
	ix.add(entryMeta{rel: "2026/03/04/100000-aaaa.jsonl", size: 1234, mod: mod.UnixNano()}, Info{
		ID: "aaaa", Path: "/h/sessions/2026/03/04/100000-aaaa.jsonl", Created: east, Updated: mod,
		Workspace: "/w", Model: "m", Parent: "pppp", Title: "a title…", Prompt: "a prompt\twith tab", Messages: 7,
	})
	ix.add(entryMeta{rel: "2026/03/04/090000-cccc.jsonl", size: 9, mod: 1, link: true}, Info{
		ID: "cccc", Path: "/h/sessions/2026/03/04/090000-cccc.jsonl", Created: utc, Updated: mod,
	})
	ix.add(entryMeta{rel: "2026/03/04/110000-bbbb.jsonl", size: -1}, Info{ID: "bbbb", Path: "/h/sessions/2026/03/04/110000-bbbb.jsonl", Problem: "broken"})
	data := encodeIndex(ix, "/h/sessions")
	got, err := decodeIndex(append([]byte(nil), data...), "/h/sessions")
	if err != nil {
		t.Fatal(err)
	}
	moved, err := decodeIndex(append([]byte(nil), data...), "/elsewhere/sessions")
	if err != nil {
		t.Fatal(err)
	}
	for i := range moved.infos {
		if want := "/elsewhere/sessions/" + ix.meta[i].rel; moved.infos[i].Path != want || moved.meta[i].rel != ix.meta[i].rel {
			t.Errorf("read for a moved home: path %q, rel %q; want %q", moved.infos[i].Path, moved.meta[i].rel, want)
		}
	}
	if !reflect.DeepEqual(got.folders, ix.folders) {
		t.Errorf("folders %+v, want %+v", got.folders, ix.folders)
	}
	if !reflect.DeepEqual(got.meta, ix.meta) {
		t.Errorf("entries %+v, want %+v", got.meta, ix.meta)
	}
	if len(got.infos) != len(ix.infos) {
		t.Fatalf("read %d entries, wrote %d", len(got.infos), len(ix.infos))
	}
	for i, want := range ix.infos {
		g := got.infos[i]
		rel := ix.meta[i].rel
		if !g.Created.Equal(want.Created) || !g.Updated.Equal(want.Updated) {
			t.Errorf("%s: times %v %v, want %v %v", rel, g.Created, g.Updated, want.Created, want.Updated)
		}
		for _, p := range [][2]time.Time{{g.Created, want.Created}, {g.Updated, want.Updated}} {
			gn, gotOff := p[0].Zone()
			wn, wantOff := p[1].Zone()
			if gotOff != wantOff || (p[1].Location() == time.UTC) != (p[0].Location() == time.UTC) {
				t.Errorf("%s: zone %s %d, want %s %d", rel, gn, gotOff, wn, wantOff)
			}
		}
		if want.Updated.Location() == time.Local && g.Updated != want.Updated {
			t.Errorf("%s: a Local time read back as %#v, want %#v", rel, g.Updated, want.Updated)
		}
		g.Created, g.Updated, want.Created, want.Updated = time.Time{}, time.Time{}, time.Time{}, time.Time{}
		if !reflect.DeepEqual(g, want) {
			t.Errorf("%s:\n got %+v\nwant %+v", rel, g, want)
		}
	}
	for n := range len(data) {
		if _, err := decodeIndex(append([]byte(nil), data[:n]...), "/h"); err == nil {
			t.Fatalf("a file cut to %d of %d bytes was read as an index", n, len(data))
		}
	}
	for _, bad := range [][]byte{nil, []byte("not an index"), append(append([]byte(nil), data...), 0)} {
		if _, err := decodeIndex(bad, "/h"); err == nil {
			t.Errorf("%q was read as an index", bad)
		}
	}
}
