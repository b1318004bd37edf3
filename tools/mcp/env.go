package mcp

import (
	"os"
	"slices"
	"sort"
	"strings"
)

// passedEnv are the variables every stdio server gets from tern's
// environment, besides those its configuration lists.
var passedEnv = []string{"PATH", "HOME", "LANG", "TMPDIR"}

// HiddenEnv are tern's own key variables: never passed to a server, neither
// by name nor through a $VAR in a configured value.
var HiddenEnv = []string{"LLM_API_KEY", "OPENAI_API_KEY"}

// childEnv is a stdio server's whole environment: PATH, HOME, LANG and
// TMPDIR from getenv, then the configured variables with $VAR and ${VAR}
// expanded from getenv (unless literal). The key variables are dropped, by
// name and as expansions.
func childEnv(configured map[string]string, getenv func(string) string, literal bool) []string {
	vars := map[string]string{}
	for _, name := range passedEnv {
		if v := getenv(name); v != "" {
			vars[name] = v
		}
	}
	for name, value := range configured {
		if hidden(name) {
			continue
		}
		if !literal {
			value = expand(value, getenv)
		}
		vars[name] = value
	}
	out := make([]string, 0, len(vars))
	for name, v := range vars {
		out = append(out, name+"="+v)
	}
	sort.Strings(out)
	return out
}

// expand replaces $VAR and ${VAR} in s from getenv; the key variables
// expand to nothing.
func expand(s string, getenv func(string) string) string {
	return os.Expand(s, func(name string) string {
		if hidden(name) {
			return ""
		}
		return getenv(name)
	})
}

// hidden reports whether name is one of HiddenEnv in any letter case:
// Windows looks variables up without regard to case.
func hidden(name string) bool {
	return slices.ContainsFunc(HiddenEnv, func(h string) bool { return strings.EqualFold(h, name) })
}
