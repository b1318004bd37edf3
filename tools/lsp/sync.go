package lsp

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// maxWatchedFiles bounds the files a server's re-sync looks at.
const maxWatchedFiles = 20000

// fileStamp is what tells a file changed on disk.
type fileStamp struct {
	mod  time.Time
	size int64
}

// scan stamps the files under root the server covers, skipping hidden
// folders and node_modules.
func (c *client) scan(ctx context.Context, root string) map[string]fileStamp {
	out := map[string]fileStamp{}
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || ctx.Err() != nil {
			return filepath.SkipDir
		}
		if d.IsDir() {
			name := d.Name()
			if p != root && (strings.HasPrefix(name, ".") || name == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || !c.cfg.covers(p) {
			return nil
		}
		if len(out) >= maxWatchedFiles {
			return filepath.SkipAll
		}
		if fi, err := d.Info(); err == nil {
			out[p] = fileStamp{mod: fi.ModTime(), size: fi.Size()}
		}
		return nil
	})
	return out
}

// noteDiskLocked records the disk state of abs after tern changed it, so a
// re-sync does not send it again. Call with c.mu held.
func (c *client) noteDiskLocked(abs string) {
	if c.files == nil {
		return
	}
	if fi, err := os.Stat(abs); err == nil {
		c.files[abs] = fileStamp{mod: fi.ModTime(), size: fi.Size()}
	}
}

// resync tells the server about files changed on disk since it last heard
// of them (by shell commands, code generators): open documents get their
// new text, others a watched-file event. It reports whether it sent
// anything.
func (c *client) resync(ctx context.Context, workspace string) bool {
	c.mu.Lock()
	running := c.state == StateRunning && c.proc != nil
	old := c.files
	c.mu.Unlock()
	if !running {
		return false
	}
	root := c.root
	if !inside(workspace, root) {
		root = workspace
	}
	now := c.scan(ctx, root)
	if ctx.Err() != nil {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.state != StateRunning || c.proc == nil {
		return false
	}
	c.files = now
	if old == nil {
		return false // the first look: the server read the disk itself
	}
	var events []fileEvent
	for p, st := range now {
		was, ok := old[p]
		switch {
		case !ok:
			events = append(events, fileEvent{URI: fileURI(p), Type: fileCreated})
		case was != st:
			uri := fileURI(p)
			if d := c.docs[uri]; d != nil {
				if data, err := os.ReadFile(p); err == nil && string(data) != d.text {
					d.version++
					d.text = string(data)
					c.sendLocked(uri, d)
				}
				continue
			}
			events = append(events, fileEvent{URI: uri, Type: fileChanged})
		}
	}
	for p := range old {
		if _, ok := now[p]; !ok {
			uri := fileURI(p)
			if d := c.docs[uri]; d != nil && d.open {
				c.proc.post("textDocument/didClose", didCloseParams{TextDocument: documentID{URI: uri}})
				delete(c.docs, uri)
			}
			events = append(events, fileEvent{URI: uri, Type: fileDeleted})
		}
	}
	if len(events) > 0 {
		c.proc.post("workspace/didChangeWatchedFiles", didChangeWatchedFilesParams{Changes: events})
	}
	return len(events) > 0 || c.seqDirty(old, now)
}

// seqDirty reports whether any stamp differs between old and now.
func (c *client) seqDirty(old, now map[string]fileStamp) bool {
	if len(old) != len(now) {
		return true
	}
	for p, st := range now {
		if old[p] != st {
			return true
		}
	}
	return false
}
