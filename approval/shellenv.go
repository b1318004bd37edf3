package approval

import "strings"

// An assignment before a command (FOO=1 go test) is matched by a rule for
// the command alone only when the variable is known to be harmless: many
// programs read variables that make them run other code or read other
// configuration (HOME and XDG_CONFIG_HOME move git's config, with its
// pager and aliases; CC is run by go build; LESSOPEN by less;
// npm_config_script_shell by npm run; GOFLAGS=-toolexec by go test), and no
// list of the dangerous ones is complete. Any other assignment must be
// spelled by the rule itself (run_shell:FOO=1 make *).

// safeEnvNames are variables that change no program, config file or
// search path that runs: locale, colour, sizes, Go's target and runtime
// knobs, log levels.
var safeEnvNames = map[string]bool{
	"CGO_ENABLED": true, "GOOS": true, "GOARCH": true, "GOARM": true, "GOAMD64": true, "GO386": true,
	"GOMAXPROCS": true, "GOGC": true, "GOMEMLIMIT": true, "GOTRACEBACK": true, "GOEXPERIMENT": true,
	"CI": true, "NODE_ENV": true, "RUST_BACKTRACE": true, "RUST_LOG": true, "RUST_TEST_THREADS": true,
	"DEBUG": true, "VERBOSE": true, "TZ": true, "LANG": true, "LANGUAGE": true, "TERM": true,
	"NO_COLOR": true, "FORCE_COLOR": true, "CLICOLOR": true, "CLICOLOR_FORCE": true, "COLUMNS": true, "LINES": true,
	"PYTHONUNBUFFERED": true, "PYTHONDONTWRITEBYTECODE": true, "PYTHONHASHSEED": true,
}

// safeGoFlags are go command flags GOFLAGS may carry without making go run
// another program (unlike -exec, -toolexec, -ldflags=-extld=..., -overlay).
var safeGoFlags = map[string]bool{
	"count": true, "race": true, "v": true, "mod": true, "tags": true, "trimpath": true, "short": true,
	"timeout": true, "cover": true, "covermode": true, "failfast": true, "json": true, "p": true,
	"buildvcs": true, "shuffle": true, "cpu": true, "vet": true, "x": true, "n": true, "a": true,
}

// safeEnv reports whether an assignment NAME=value changes nothing that
// runs, so a rule for the command alone may vouch for it.
func safeEnv(name, value string) bool {
	switch {
	case safeEnvNames[name] || strings.HasPrefix(name, "LC_"):
		return true
	case name == "GOFLAGS":
		for _, f := range strings.Fields(value) {
			n, _, _ := strings.Cut(strings.TrimLeft(f, "-"), "=")
			if !strings.HasPrefix(f, "-") || !safeGoFlags[n] {
				return false
			}
		}
		return true
	}
	return false
}
