package session

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

func TestStoreDedup(t *testing.T) {
	t.Parallel()
	sessionPath := filepath.Join(t.TempDir(), "2026", "01", "02", "030405-abc.jsonl")
	s := NewStore(sessionPath)
	if want := filepath.Join(strings.TrimSuffix(sessionPath, ".jsonl"), "blobs"); s.Dir() != want {
		t.Fatalf("Dir %s, want %s", s.Dir(), want)
	}
	content := []byte("package main\n\nfunc main() {}\n")
	h1, err := s.Save(content)
	if err != nil {
		t.Fatal(err)
	}
	if sum := sha256.Sum256(content); h1 != hex.EncodeToString(sum[:]) {
		t.Fatalf("hash %q", h1)
	}
	path := filepath.Join(s.Dir(), h1)
	before, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	// Again through the same store and through a fresh one (as after a
	// resume): the blob is not rewritten.
	for _, st := range []*Store{s, NewStore(sessionPath)} {
		h2, err := st.Save(bytes.Clone(content))
		if err != nil || h2 != h1 {
			t.Fatalf("second save: %q, %v", h2, err)
		}
	}
	after, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !os.SameFile(before, after) || !after.ModTime().Equal(before.ModTime()) {
		t.Fatal("saving the same content again rewrote the blob")
	}
	empty, err := s.Save(nil)
	if err != nil || empty == h1 {
		t.Fatalf("empty content: %q, %v", empty, err)
	}
	entries, err := os.ReadDir(s.Dir())
	if err != nil || len(entries) != 2 {
		t.Fatalf("blobs %v, %v; want two files and no temporaries", entries, err)
	}
	for _, h := range []string{h1, empty} {
		got, err := s.Load(h)
		if err != nil {
			t.Fatal(err)
		}
		want := content
		if h == empty {
			want = nil
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("Load(%s) = %q", h, got)
		}
	}
}

func TestStoreLoadErrors(t *testing.T) {
	t.Parallel()
	s := NewStore(filepath.Join(t.TempDir(), "s.jsonl"))
	h, err := s.Save([]byte("original"))
	if err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{Absent, "../../etc/passwd", strings.ToUpper(h), h[:63], strings.Repeat("0", 64)} {
		if _, err := s.Load(bad); err == nil {
			t.Errorf("Load(%q) succeeded", bad)
		}
	}
	if err := os.WriteFile(filepath.Join(s.Dir(), h), []byte("tampered"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(h); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("Load of a changed blob = %v", err)
	}
}

func TestStoreConcurrentSaves(t *testing.T) {
	t.Parallel()
	s := NewStore(filepath.Join(t.TempDir(), "s.jsonl"))
	var wg sync.WaitGroup
	hashes := make([]string, 16)
	for i := range hashes {
		wg.Go(func() {
			h, err := s.Save([]byte{byte(i % 4)})
			if err != nil {
				t.Error(err)
			}
			hashes[i] = h
		})
	}
	wg.Wait()
	entries, err := os.ReadDir(s.Dir())
	if err != nil || len(entries) != 4 {
		t.Fatalf("%d blobs for 4 distinct contents (%v)", len(entries), err)
	}
	for i, h := range hashes {
		got, err := s.Load(h)
		if err != nil || !bytes.Equal(got, []byte{byte(i % 4)}) {
			t.Fatalf("blob %d: %v, %v", i, got, err)
		}
	}
}
