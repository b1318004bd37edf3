package agent

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// MemoryMaxBytes is the most of one memory file that goes into the system
// prompt; a longer file is cut with a marker saying so, so that one runaway
// file cannot fill the context window.
const MemoryMaxBytes = 32 << 10

// memoryNames are the instruction file names, in order of preference: a
// directory's CLAUDE.md is read only when it has no AGENTS.md.
var memoryNames = []string{"AGENTS.md", "CLAUDE.md"}

// LoadMemory reads the project memory files for a session: the global
// ternHome/AGENTS.md first, then AGENTS.md (or CLAUDE.md when a directory has
// none) from the git root down to the workspace, outermost first, so the
// instructions closest to the work come last and weigh most. Without a git
// root only the workspace itself is searched. Each file is clamped to
// MemoryMaxBytes. Missing files are skipped; files that exist but cannot be
// read are reported in the error, and the others are still returned.
func LoadMemory(workspace, ternHome string) ([]MemoryFile, error) {
	var dirs []string
	if ternHome != "" {
		dirs = append(dirs, ternHome)
	}
	project := projectDirs(workspace)
	dirs = append(dirs, project...)
	var out []MemoryFile
	var errs []error
	seen := map[string]bool{}
	for i, dir := range dirs {
		names := memoryNames
		if i == 0 && ternHome != "" {
			names = memoryNames[:1] // the global file is AGENTS.md only
		}
		for _, name := range names {
			path := filepath.Join(dir, name)
			top := project[0] // a project's memory files stay in the project
			if i == 0 && ternHome != "" {
				top = "" // the user's own file may be a link anywhere
			}
			content, ok, err := readMemoryFile(path, top)
			if err != nil {
				errs = append(errs, err)
			}
			if !ok {
				continue
			}
			if !seen[path] {
				seen[path] = true
				out = append(out, MemoryFile{Path: path, Content: content})
			}
			break
		}
	}
	return out, errors.Join(errs...)
}

// projectDirs lists the directories whose memory files apply to workspace:
// the git root (the nearest directory holding .git) down to workspace,
// outermost first; only workspace when it is in no git repository.
func projectDirs(workspace string) []string {
	var chain []string
	for dir := workspace; ; {
		chain = append(chain, dir)
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return []string{workspace} // no git root: only the workspace
		}
		dir = parent
	}
	for i, j := 0, len(chain)-1; i < j; i, j = i+1, j-1 {
		chain[i], chain[j] = chain[j], chain[i]
	}
	return chain
}

// readMemoryFile reads a memory file clamped to MemoryMaxBytes. ok is false
// when there is no such regular file.
func readMemoryFile(path, top string) (content string, ok bool, err error) {
	f, err := openMemoryFile(path, top)
	if errors.Is(err, fs.ErrNotExist) {
		return "", false, nil
	}
	if err != nil {
		return "", false, fmt.Errorf("read memory file %s: %w", path, err)
	}
	defer func() { _ = f.Close() }()
	st, err := f.Stat()
	if err != nil {
		return "", false, fmt.Errorf("read memory file %s: %w", path, err)
	}
	if !st.Mode().IsRegular() {
		return "", false, nil // a directory or device named AGENTS.md is not instructions
	}
	buf, err := io.ReadAll(io.LimitReader(f, MemoryMaxBytes+1))
	if err != nil {
		return "", false, fmt.Errorf("read memory file %s: %w", path, err)
	}
	return clampMemory(buf, st.Size()), true, nil
}

// clampMemory cuts buf to MemoryMaxBytes at a character boundary and says
// how much of the file (size bytes) was left out.
func clampMemory(buf []byte, size int64) string {
	if len(buf) <= MemoryMaxBytes {
		return string(buf)
	}
	cut := MemoryMaxBytes
	for cut > 0 && !utf8.RuneStart(buf[cut]) {
		cut--
	}
	size = max(size, int64(len(buf)))
	return string(buf[:cut]) + fmt.Sprintf("\n[… truncated: the first %d of %d bytes are shown; read the file for the rest]\n", cut, size)
}

// MemoryBytes is how many bytes of the system prompt BuildSystemPrompt
// gives to these memory files, for the /context breakdown.
func MemoryBytes(files []MemoryFile) int { return len(memorySection(files)) }

// AppendMemory adds line as a bullet to the workspace's instruction file:
// AGENTS.md, or CLAUDE.md when only that one exists (a new AGENTS.md would
// hide it), else a new AGENTS.md. It returns the file's path. The line
// reaches the model from the next session: the system prompt of a running
// one never changes.
func AppendMemory(workspace, line string) (string, error) {
	line = strings.Join(strings.Fields(line), " ")
	if line == "" {
		return "", errors.New("nothing to remember: write the instruction after #")
	}
	path := filepath.Join(workspace, memoryNames[0])
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		if st, err := os.Stat(filepath.Join(workspace, memoryNames[1])); err == nil && st.Mode().IsRegular() {
			path = filepath.Join(workspace, memoryNames[1])
		}
	}
	prefix := ""
	if b, err := os.ReadFile(path); err == nil && len(b) > 0 && b[len(b)-1] != '\n' {
		prefix = "\n"
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return "", fmt.Errorf("open %s to add the instruction: %w", path, err)
	}
	_, werr := f.WriteString(prefix + "- " + line + "\n")
	cerr := f.Close()
	if werr != nil || cerr != nil {
		return "", fmt.Errorf("add the instruction to %s: %w", path, errors.Join(werr, cerr))
	}
	return path, nil
}
