package main

import (
	"os"
	"strings"

	"github.com/ternhq/tern/cmd/tern/config"
)

// hideKeyFromChildren removes tern's API key variables from the process
// environment once they are read into env, so that no program tern starts
// (git for checkpoints, the editor, the clipboard tool, the launcher)
// inherits the key: those programs are dumpable, and a command of the same
// user could read it from their /proc/PID/environ while they run. tern
// itself reads its environment through getenv over env from then on.
func hideKeyFromChildren() {
	for _, name := range []string{config.EnvAPIKey, config.EnvOpenAIAPIKey} {
		_ = os.Unsetenv(name)
	}
}

// getenvFrom returns a getenv that reads env (entries "NAME=value"; the
// last entry for a name wins, as for exec).
func getenvFrom(env []string) func(string) string {
	vars := make(map[string]string, len(env))
	for _, kv := range env {
		if name, value, ok := strings.Cut(kv, "="); ok {
			vars[name] = value
		}
	}
	return func(name string) string { return vars[name] }
}
