package config

// SourceKind says where a resolved value came from.
type SourceKind int

// The places a value can come from, in increasing precedence.
const (
	SourceDefault SourceKind = iota + 1
	SourceFile
	// SourceState is TERN_HOME/state.json: a choice made in the interface
	// (/model), above config.toml until that file names another value.
	SourceState
	SourceEnv
	SourceFlag
)

// Source names where a value came from, so `tern doctor` can tell the user
// which knob to turn.
type Source struct {
	Kind SourceKind
	// Name is the flag name (without dashes), the environment variable, or
	// the config or state file's path; empty for defaults.
	Name string
}

// String says it the way doctor prints it: "flag --model", "env LLM_MODEL",
// "config /home/me/.tern/config.toml" or "default".
func (s Source) String() string {
	switch s.Kind {
	case SourceDefault:
		return "default"
	case SourceFile:
		return "config " + s.Name
	case SourceState:
		return "picked with /model (" + s.Name + ")"
	case SourceEnv:
		return "env " + s.Name
	case SourceFlag:
		return "flag --" + s.Name
	}
	return "unknown"
}

// Value is a resolved setting together with where it came from.
type Value[T any] struct {
	V      T
	Source Source
}
