package session

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// LatestLog is Latest for continuing the session: the same session, but
// its Info holds the header's fields and any Problem, not the counts,
// title or prompt a list shows. Latest scans the whole log for those
// (18 MB for a 2,000-turn session, on the way to `tern -c`'s first
// frame); LatestLog reads up to the log's first message, enough to know it
// is not empty.
func LatestLog(home, workspace string) (Info, error) {
	workspace = filepath.Clean(workspace)
	cands, err := byLastUse(home)
	if err != nil {
		return Info{}, err
	}
	for _, c := range cands {
		info := readInfo(c.path, false)
		if info.Problem != "" || filepath.Clean(info.Workspace) != workspace {
			continue
		}
		if used, problem := holdsMessage(c.path); used {
			info.Problem = problem
			return info, nil
		}
	}
	return Info{}, fmt.Errorf("no saved session for %s; start one by running tern there: %w", workspace, ErrNotFound)
}

// holdsMessage reports whether the log at path has a message line, the
// test of Info.empty, reading only as far as the first; a log that cannot
// be read counts as used, with the problem (as scanBody reports it).
func holdsMessage(path string) (used bool, problem string) {
	f, err := os.Open(path)
	if err != nil {
		return true, err.Error()
	}
	defer func() { _ = f.Close() }()
	r := bufio.NewReaderSize(f, 64<<10)
	start := true // at the start of a line
	for {
		line, err := r.ReadSlice('\n')
		if start && (bytes.HasPrefix(line, userPrefix) || bytes.HasPrefix(line, assistantPrefix)) {
			return true, ""
		}
		start = err == nil
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			continue // the rest of a long line
		case errors.Is(err, io.EOF):
			return false, ""
		case err != nil:
			return true, err.Error()
		}
	}
}

// logUse is a session log and when it last changed.
type logUse struct {
	path string
	used time.Time
}

// byLastUse lists the logs under home, the most recently changed first,
// which is the order both Latest and LatestLog read headers in.
func byLastUse(home string) ([]logUse, error) {
	var cands []logUse
	err := walkDays(home, func(files []string) bool {
		for _, f := range files {
			if st, err := os.Stat(f); err == nil {
				cands = append(cands, logUse{path: f, used: st.ModTime()})
			}
		}
		return false
	})
	if err != nil {
		return nil, err
	}
	sort.SliceStable(cands, func(i, j int) bool { return cands[i].used.After(cands[j].used) })
	return cands, nil
}
