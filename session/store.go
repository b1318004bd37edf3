package session

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
)

// Store keeps file contents by their SHA-256 in the session's folder
// (<session file without .jsonl>/blobs/<hex>), so a checkpoint costs one
// copy of each distinct content however often it is saved. It is safe for
// concurrent use.
type Store struct {
	dir   string
	mu    sync.Mutex
	known map[string]bool
}

// NewStore returns the checkpoint store of the session file sessionPath.
// Nothing is created until the first Save.
func NewStore(sessionPath string) *Store {
	return &Store{
		dir:   filepath.Join(strings.TrimSuffix(sessionPath, ".jsonl"), "blobs"),
		known: make(map[string]bool),
	}
}

// Dir is the folder holding the blobs.
func (s *Store) Dir() string { return s.dir }

// Save stores content and returns its hash (lowercase hex SHA-256). Content
// already stored is not written again. The blob is synced before Save
// returns, so the checkpoint survives a crash during the edit that follows.
func (s *Store) Save(content []byte) (string, error) {
	sum := sha256.Sum256(content)
	hash := hex.EncodeToString(sum[:])
	s.mu.Lock()
	known := s.known[hash]
	s.mu.Unlock()
	if known {
		return hash, nil
	}
	path := filepath.Join(s.dir, hash)
	if _, err := os.Stat(path); err == nil {
		s.remember(hash)
		return hash, nil
	}
	if err := s.write(path, content); err != nil {
		return "", fmt.Errorf("save checkpoint: %w", err)
	}
	s.remember(hash)
	return hash, nil
}

func (s *Store) remember(hash string) {
	s.mu.Lock()
	s.known[hash] = true
	s.mu.Unlock()
}

// write puts content at path through a temporary file and a rename, so a
// blob is either whole or absent.
func (s *Store) write(path string, content []byte) error {
	if err := os.MkdirAll(s.dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(s.dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(content)
	if err == nil {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
	}
	return err
}

// Load returns the content saved under hash, checking that it still matches.
func (s *Store) Load(hash string) ([]byte, error) {
	if hash == Absent {
		return nil, errors.New(`load checkpoint: hash "absent" marks a file that did not exist; there is no content to load`)
	}
	if !validHash(hash) {
		return nil, fmt.Errorf("load checkpoint: %q is not a SHA-256 hex hash", hash)
	}
	data, err := os.ReadFile(filepath.Join(s.dir, hash))
	if err != nil {
		return nil, fmt.Errorf("load checkpoint: %w", err)
	}
	if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != hash {
		return nil, fmt.Errorf("load checkpoint %s: the stored content is damaged (it no longer matches its hash)", hash)
	}
	return data, nil
}

func validHash(h string) bool {
	if len(h) != 2*sha256.Size {
		return false
	}
	for _, c := range h {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
