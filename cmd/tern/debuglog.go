package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// debugLog appends a line to TERN_HOME/debug.log: where tern notes what
// went wrong in the background without bothering the user (a title request
// that failed). Failing to write it is ignored: it is only a log.
func debugLog(home string, redact func(string) string) func(string, ...any) {
	return func(format string, args ...any) {
		if home == "" {
			return
		}
		f, err := os.OpenFile(filepath.Join(home, "debug.log"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
		if err != nil {
			return
		}
		line := time.Now().UTC().Format(time.RFC3339) + " " + redact(fmt.Sprintf(format, args...)) + "\n"
		_, _ = f.WriteString(line)
		_ = f.Close()
	}
}
