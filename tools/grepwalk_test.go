package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// TestWalkOrderLess checks that walkOrderLess sorts paths as walkFiles
// visits them: depth first, names in byte order.
func TestWalkOrderLess(t *testing.T) {
	t.Parallel()
	w, _ := toolTree(t, map[string]string{
		"a/b.txt": "x\n", "a-c.txt": "x\n", "a.b/c.txt": "x\n", "a/b/c.txt": "x\n",
		"a0.txt": "x\n", "A.txt": "x\n", "a/a/a/a.txt": "x\n", "ab.txt": "x\n", "a!": "x\n",
	})
	var walked []string
	if _, err := walkFiles(context.Background(), w, "", walkOptions{}, func(f walkFile) error {
		walked = append(walked, f.rel)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	sorted := slices.Clone(walked)
	slices.Reverse(sorted)
	slices.SortFunc(sorted, func(a, b string) int {
		if walkOrderLess(a, b) {
			return -1
		}
		if walkOrderLess(b, a) {
			return 1
		}
		return 0
	})
	if !slices.Equal(walked, sorted) {
		t.Errorf("walk order %q, sorted %q", walked, sorted)
	}
}

// TestGrepShowsFirstMatchesInWalkOrder checks that the parallel search
// shows the same matches as a walk in order would: the first 200 by path,
// with every match counted, whatever order the walkers finish in.
func TestGrepShowsFirstMatchesInWalkOrder(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := range 600 {
		files[fmt.Sprintf("d%d/s%d/f%03d.txt", i%13, i%7, i)] = fmt.Sprintf("needle %d\n", i)
	}
	w, _ := toolTree(t, files)
	var want []string
	if _, err := walkFiles(context.Background(), w, "", walkOptions{}, func(f walkFile) error {
		want = append(want, f.rel)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		r := callTool(t, NewGrep(w), map[string]any{"pattern": "needle"})
		var got []string
		for _, l := range strings.Split(r.Output, "\n") {
			if i := strings.Index(l, ":1: "); i > 0 {
				got = append(got, l[:i])
			}
		}
		if !slices.Equal(got, want[:grepMaxMatches]) {
			t.Fatalf("shown files differ from the first %d in walk order:\n%q\n%q", grepMaxMatches, got[:5], want[:5])
		}
		if r.Summary != "600 matches in 600 files" {
			t.Fatalf("summary %q", r.Summary)
		}
	}
}

// TestGrepFolderReadOnce checks the hot path of a search: a folder is read
// twice, the read that confirms the end of its listing serving as the
// barrier of the files opened in it, not three times.
func TestGrepFolderReadOnce(t *testing.T) {
	t.Parallel()
	if runtime.GOOS != "linux" {
		t.Skip("the folder reader counts reads on Linux")
	}
	w, _ := toolTree(t, map[string]string{"d/a.txt": "x\n", "d/b.txt": "x\n", "d/c.txt": "x\n"})
	r, done, err := w.fsRoot()
	if err != nil {
		t.Fatal(err)
	}
	defer done()
	d, err := openExact(r, "d", 0)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = d.Close() }()
	var seen []string
	var st walkStats
	wk := &walker{ctx: context.Background(), w: w, r: r, opts: walkOptions{open: true}, stats: &st, idx: new(secretIndex),
		visit: func(f walkFile) error {
			seen = append(seen, f.rel)
			return syscall.Close(f.fd)
		}}
	if err := wk.dir(d, "d", nil); err != nil {
		t.Fatal(err)
	}
	if len(seen) != 3 || wk.reads != 2 {
		t.Errorf("visited %q with %d folder reads, want 3 files and 2 reads", seen, wk.reads)
	}
}

// TestGrepBigFolderIgnores checks a folder too big for one read: its
// .gitignore, listed after the first read, still applies to every file.
func TestGrepBigFolderIgnores(t *testing.T) {
	t.Parallel()
	files := map[string]string{"big/zz_ignored.txt": "needle\n"}
	for i := range 1500 {
		files[fmt.Sprintf("big/file-with-a-rather-long-name-%04d.txt", i)] = "needle\n"
	}
	files["big/.gitignore"] = "zz_*\n"
	w, _ := toolTree(t, files)
	r := callTool(t, NewGrep(w), map[string]any{"pattern": "needle", "path": "big"})
	if r.Summary != "1500 matches in 1500 files" || strings.Contains(r.Output, "zz_ignored") {
		t.Errorf("summary %q (want 1500 files, the ignored one left out)", r.Summary)
	}
}

// TestGrepParallelSwapAttack runs grep over many folders while a process
// beside it swaps a file for a symlink to /etc/passwd and a folder for a
// symlink to a folder outside (and back), replaces a file by a FIFO, and
// keeps a hard link to .env under an innocent name: nothing from outside or
// from the secret may come back, and every search ends.
func TestGrepParallelSwapAttack(t *testing.T) {
	t.Parallel()
	if runtime.GOOS == "windows" {
		t.Skip("symlinks and FIFOs")
	}
	files := map[string]string{".env": "TOKEN=" + raceMarker + "-env\n"}
	for i := range 200 {
		files[fmt.Sprintf("d%d/f%d.txt", i%40, i)] = "inside root: x\n"
	}
	w, outside := toolTree(t, files)
	root := w.Root
	if err := os.WriteFile(filepath.Join(outside, "dir", "m.txt"), []byte(raceMarker+" root:\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(filepath.Join(root, ".env"), filepath.Join(root, "d3", "innocent.txt")); err != nil {
		t.Skip("hard links:", err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var flips atomic.Int64
	wg.Add(1)
	go func() {
		defer wg.Done()
		file := filepath.Join(root, "d1", "f1.txt")
		dir := filepath.Join(root, "d2")
		fifoFile := filepath.Join(root, "d4", "f4.txt")
		tmp := filepath.Join(root, "d1", ".tmp-link")
		dirTmp := filepath.Join(root, ".tmp-dirlink")
		fifo := filepath.Join(root, "d4", ".tmp-fifo")
		saved := filepath.Join(root, ".saved-d2")
		for {
			select {
			case <-stop:
				return
			default:
			}
			// A file becomes a symlink to /etc/passwd, then a file again.
			_ = os.Symlink("/etc/passwd", tmp)
			_ = os.Rename(tmp, file)
			_ = os.WriteFile(tmp, []byte("inside root: x\n"), 0o644)
			_ = os.Rename(tmp, file)
			// A folder becomes a symlink to a folder outside, and back.
			if os.Rename(dir, saved) == nil {
				_ = os.Symlink(filepath.Join(outside, "dir"), dirTmp)
				_ = os.Rename(dirTmp, dir)
				_ = os.Remove(dir)
				_ = os.Rename(saved, dir)
			}
			// A file becomes a FIFO, then a file again.
			if syscall.Mkfifo(fifo, 0o644) == nil {
				_ = os.Rename(fifo, fifoFile)
			}
			_ = os.WriteFile(tmp, []byte("inside root: x\n"), 0o644)
			_ = os.Rename(tmp, fifoFile)
			flips.Add(1)
		}
	}()
	defer func() {
		close(stop)
		wg.Wait()
	}()
	rounds := 150
	if testing.Short() {
		rounds = 40
	}
	for range rounds {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		res := NewGrep(w).Run(ctx, json.RawMessage(`{"pattern":"root:|TOKEN|`+raceMarker+`"}`), nil)
		cancel()
		if res.Status != StatusOK {
			t.Fatalf("grep did not finish: %v %s", res.Status, res.Output)
		}
		if strings.Contains(res.Output, raceMarker) || strings.Contains(res.Output, "root:x:0") || strings.Contains(res.Output, "TOKEN") {
			t.Fatalf("grep showed content from outside the workspace or a secret:\n%s", res.Output)
		}
	}
	t.Logf("%d rounds, %d swaps", rounds, flips.Load())
}

// TestGrepCancelStopsWalkers checks that cancelling a search stops every
// walker at once: Run returns soon, before, early in and during the walk.
func TestGrepCancelStopsWalkers(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := range 3000 {
		files[fmt.Sprintf("d%d/s%d/f%d.txt", i%30, i%11, i)] = strings.Repeat("line of text\n", 50)
	}
	w, _ := toolTree(t, files)
	for _, after := range []time.Duration{0, time.Millisecond, 5 * time.Millisecond} {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan Result, 1)
		go func() { done <- NewGrep(w).Run(ctx, json.RawMessage(`{"pattern":"nothing here"}`), nil) }()
		time.Sleep(after)
		cancel()
		select {
		case r := <-done:
			if r.Status != StatusCancelled && r.Status != StatusOK {
				t.Errorf("status %v: %s", r.Status, r.Output)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("grep did not stop within 10 s of its cancellation")
		}
	}
}
