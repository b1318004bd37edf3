package session

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ternhq/tern/agent"
)

// ErrNotFound is returned (wrapped) when no session matches.
var ErrNotFound = errors.New("session not found")

// ErrAmbiguous is returned (wrapped) when an id prefix matches several sessions.
var ErrAmbiguous = errors.New("session id prefix is ambiguous")

// Info describes a session for lists and pickers without loading it.
type Info struct {
	ID      string
	Path    string
	Created time.Time
	// Updated is when the file last changed: when the session was last
	// used. Lists are ordered by it, newest first.
	Updated   time.Time
	Workspace string
	Model     string
	Parent    string
	// Title is the session's last title record (generated after the first
	// answer, or given with /rename), else its first user prompt on one
	// line, shortened to about 60 characters.
	Title string
	// Prompt is the first user prompt on one line, shortened to about 200
	// characters, for a picker's detail line.
	Prompt string
	// Messages counts user and finished assistant messages.
	Messages int
	// Problem says why the file could not be read; the other fields are
	// then what its name tells. Damaged sessions are listed, not hidden.
	Problem string
}

// titleRunes is about how long a title may be; promptRunes how long Prompt.
const (
	titleRunes  = 60
	promptRunes = 200
)

// compareInfos orders sessions the most recently used first, then the
// newest created, then by path, descending (paths differ: the order is
// total).
func compareInfos(a, b *Info) int {
	if c := b.Updated.Compare(a.Updated); c != 0 {
		return c
	}
	if c := b.Created.Compare(a.Created); c != 0 {
		return c
	}
	return strings.Compare(b.Path, a.Path)
}

// Latest returns the most recently used session of workspace: the one whose
// file changed last, so a session resumed and continued today wins over one
// started later but left alone. It orders the files by their modification
// time and reads headers from the newest until one matches.
func Latest(home, workspace string) (Info, error) {
	workspace = filepath.Clean(workspace)
	cands, err := byLastUse(home)
	if err != nil {
		return Info{}, err
	}
	for _, c := range cands {
		info := readInfo(c.path, false)
		if info.Problem == "" && filepath.Clean(info.Workspace) == workspace {
			if full := readInfo(c.path, true); !full.empty() {
				return full, nil
			}
		}
	}
	return Info{}, fmt.Errorf("no saved session for %s; start one by running tern there: %w", workspace, ErrNotFound)
}

// Find returns the session whose id is idPrefix or starts with it.
func Find(home, idPrefix string) (Info, error) {
	idPrefix = strings.ToLower(strings.TrimSpace(idPrefix))
	if idPrefix == "" {
		return Info{}, fmt.Errorf("no session id given; run `tern sessions` to see them: %w", ErrNotFound)
	}
	var matches []string
	err := walkDays(home, func(files []string) bool {
		for _, f := range files {
			id := idFromName(f)
			if id == idPrefix {
				matches = []string{f}
				return true
			}
			if strings.HasPrefix(id, idPrefix) {
				matches = append(matches, f)
			}
		}
		return false
	})
	if err != nil {
		return Info{}, err
	}
	switch len(matches) {
	case 0:
		return Info{}, fmt.Errorf("no session id starts with %q; run `tern sessions` to see them: %w", idPrefix, ErrNotFound)
	case 1:
		return readInfo(matches[0], true), nil
	}
	ids := make([]string, 0, 5)
	for _, m := range matches[:min(5, len(matches))] {
		ids = append(ids, idFromName(m))
	}
	return Info{}, fmt.Errorf("%q matches %d sessions (%s); type more of the id: %w", idPrefix, len(matches), strings.Join(ids, ", "), ErrAmbiguous)
}

// empty reports a readable session without a single message: one that was
// opened and left (or killed) before its first prompt. Lists skip it, as
// there is nothing in it to resume.
func (in Info) empty() bool { return in.Problem == "" && in.Messages == 0 }

// idFromName takes the id out of a file name <HHMMSS>-<id>.jsonl.
func idFromName(path string) string {
	name := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	if _, id, ok := strings.Cut(name, "-"); ok {
		return strings.ToLower(id)
	}
	return strings.ToLower(name)
}

// walkDays calls visit with the session files of each day folder, newest day
// first and newest file first, until visit returns true. A missing sessions
// folder is no error: there are no sessions yet.
func walkDays(home string, visit func(files []string) bool) error {
	return walkDayNames(home, func(dir string, names []string) bool {
		files := make([]string, len(names))
		for i, n := range names {
			files[i] = filepath.Join(dir, n)
		}
		return visit(files)
	})
}

// walkDayNames is walkDays with each day's folder and the files' names in
// it, for callers that reach the files through the folder.
func walkDayNames(home string, visit func(dir string, names []string) bool) error {
	root := Dir(home)
	years, err := readDirsDesc(root)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("list sessions: %w", err)
	}
	for _, y := range years {
		months, err := readDirsDesc(filepath.Join(root, y))
		if err != nil {
			return fmt.Errorf("list sessions: %w", err)
		}
		for _, m := range months {
			days, err := readDirsDesc(filepath.Join(root, y, m))
			if err != nil {
				return fmt.Errorf("list sessions: %w", err)
			}
			for _, d := range days {
				dir := filepath.Join(root, y, m, d)
				entries, err := os.ReadDir(dir)
				if err != nil {
					return fmt.Errorf("list sessions: %w", err)
				}
				var names []string
				for _, e := range entries {
					if !e.IsDir() && strings.HasSuffix(e.Name(), ".jsonl") {
						names = append(names, e.Name())
					}
				}
				slices.Reverse(names) // ReadDir sorts by name; names start with the time
				if len(names) > 0 && visit(dir, names) {
					return nil
				}
			}
		}
	}
	return nil
}

// readDirsDesc lists the sub-folders of dir, names descending.
func readDirsDesc(dir string) ([]string, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if e.IsDir() {
			names = append(names, e.Name())
		}
	}
	slices.Reverse(names)
	return names, nil
}

// Line prefixes the Writer always writes, so the scan can count records
// without decoding them.
var (
	userPrefix      = []byte(`{"type":"` + TypeUserMessage + `"`)
	assistantPrefix = []byte(`{"type":"` + TypeAssistantMessage + `"`)
	titlePrefix     = []byte(`{"type":"` + TypeTitle + `"`)
)

// readInfo reads a session's header and, with scan, counts its messages and
// takes its title. Failures end up in Info.Problem.
func readInfo(path string, scan bool) Info {
	info := Info{ID: idFromName(path), Path: path}
	f, err := os.Open(path)
	if err != nil {
		info.Problem = err.Error()
		return info
	}
	defer func() { _ = f.Close() }()
	if st, err := f.Stat(); err == nil {
		info.Updated = st.ModTime()
	}
	r := bufio.NewReaderSize(f, 64<<10)
	first, err := r.ReadBytes('\n')
	if err != nil {
		info.Problem = "the header line is incomplete"
		return info
	}
	var h Header
	if err := decodeHeader(first, &h); err != nil {
		info.Problem = err.Error()
		return info
	}
	info.ID, info.Created, info.Workspace, info.Model, info.Parent = h.ID, h.Created, h.Workspace, h.Model, h.Parent
	if !scan {
		return info
	}
	if err := scanBody(r, &info); err != nil {
		info.Problem = err.Error()
	}
	return info
}

// scanBody counts message lines and decodes only the first user message
// and the title records.
func scanBody(r *bufio.Reader, info *Info) error {
	titled := false
	for {
		line, err := r.ReadSlice('\n')
		isUser := bytes.HasPrefix(line, userPrefix)
		if isUser || bytes.HasPrefix(line, assistantPrefix) {
			info.Messages++
		}
		isTitle := bytes.HasPrefix(line, titlePrefix)
		var whole []byte
		if (isUser && info.Prompt == "") || isTitle {
			whole = append(whole, line...)
		}
		for errors.Is(err, bufio.ErrBufferFull) {
			line, err = r.ReadSlice('\n')
			if whole != nil {
				whole = append(whole, line...)
			}
		}
		var t Title
		var m UserMessage
		switch {
		case whole == nil:
		case isTitle:
			if json.Unmarshal(whole, &t) == nil && strings.TrimSpace(t.Title) != "" {
				info.Title, titled = shorten(t.Title, titleRunes), true
			}
		case json.Unmarshal(whole, &m) == nil:
			// A prompt sent in plan mode carries the agent's note for the
			// model; the title is what the user typed.
			_, text := agent.SplitPlanNote(m.Text)
			if !titled {
				info.Title = shorten(text, titleRunes)
			}
			info.Prompt = shorten(text, promptRunes)
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// shorten puts s on one line and cuts it to about n runes at a word break.
func shorten(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	runes := []rune(s)[:n-1]
	cut := string(runes)
	if i := strings.LastIndexByte(cut, ' '); i > len(cut)*2/3 {
		cut = cut[:i]
	}
	return strings.TrimRight(cut, " ") + "…"
}

// Name is what lists call a loaded session: its last title record, else
// its first prompt on one line, shortened; "" when it has neither.
func Name(s *Session) string {
	name := ""
	for _, r := range s.Records {
		switch b := r.Body.(type) {
		case Title:
			if strings.TrimSpace(b.Title) != "" {
				name = shorten(b.Title, titleRunes)
			}
		case UserMessage:
			if name == "" {
				_, text := agent.SplitPlanNote(b.Text)
				name = shorten(text, titleRunes)
			}
		}
	}
	return name
}
