package tools

// DefaultRegistry returns the tools tern offers the model, in the fixed
// order of DefaultRegistryWith's list (docs/tools.md's table, which a test
// checks against it), the file tools confined to workspace w. env is the environment run_shell passes on to
// commands (cmd/tern passes os.Environ()); tern's own API keys are removed
// from it (see FilterEnv).
func DefaultRegistry(w *Workspace, env []string) *Registry {
	return DefaultRegistryWith(w, env, RegistryOptions{})
}

// RegistryOptions are the options of the tools that take some.
type RegistryOptions struct {
	// Shell are run_shell's (its sandbox and session TMPDIR; see
	// NewRunShellWith).
	Shell ShellOptions
	// WebFetch are web_fetch's.
	WebFetch WebFetchOptions
}

// DefaultRegistryWith is DefaultRegistry with the tools' options.
// diagnostics follows the list when w has a Diagnoser.
func DefaultRegistryWith(w *Workspace, env []string, o RegistryOptions) *Registry {
	r := NewRegistry(
		NewReadFile(w),
		NewListFiles(w),
		NewGrep(w),
		NewEditFile(w),
		NewWriteFile(w),
		NewRunShellWith(w, env, o.Shell),
		NewTodoWrite(),
		NewWebFetch(o.WebFetch),
	)
	if w != nil && w.Diagnoser != nil {
		// Only with language servers on (lsp in config.toml): a tool
		// that can only say they are off is not worth its spec's tokens.
		r.Add(NewDiagnostics(w))
	}
	return r
}
