package tools

import (
	"crypto/sha256"
	"sync"
)

// FileState remembers, per absolute path, the content hash the model last saw
// (by reading or writing it), so edits of files changed on disk since then, and
// overwrites of files never read, can be refused.
type FileState struct {
	mu   sync.Mutex
	seen map[string][sha256.Size]byte
}

// NewFileState returns an empty tracker.
func NewFileState() *FileState {
	return &FileState{seen: make(map[string][sha256.Size]byte)}
}

// Record notes that the model has seen content at abs.
func (f *FileState) Record(abs string, content []byte) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.seen[abs] = sha256.Sum256(content)
}

// Seen reports whether the model has read or written abs this session.
func (f *FileState) Seen(abs string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	_, ok := f.seen[abs]
	return ok
}

// Changed reports whether content differs from what the model last saw at
// abs; a file never seen counts as changed.
func (f *FileState) Changed(abs string, content []byte) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	h, ok := f.seen[abs]
	return !ok || h != sha256.Sum256(content)
}
