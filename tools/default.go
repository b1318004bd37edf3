package tools

// DefaultRegistry returns the tools tern offers the model, in the fixed
// order of DefaultRegistryWith's list (docs/tools.md's table, which a test
// checks against it), the file tools confined to workspace w. env is the environment run_shell passes on to
// commands (cmd/tern passes os.Environ()); tern's own API keys are removed
// from it (see FilterEnv).
func DefaultRegistry(w *Workspace, env []string) *Registry {
	return DefaultRegistryWith(w, env, ShellOptions{})
}

// DefaultRegistryWith is DefaultRegistry with run_shell's options (its
// sandbox and session TMPDIR; see NewRunShellWith). diagnostics follows
// the list when w has a Diagnoser.
func DefaultRegistryWith(w *Workspace, env []string, shell ShellOptions) *Registry {
	r := NewRegistry(
		NewReadFile(w),
		NewListFiles(w),
		NewGrep(w),
		NewEditFile(w),
		NewWriteFile(w),
		NewRunShellWith(w, env, shell),
		NewTodoWrite(),
	)
	if w != nil && w.Diagnoser != nil {
		// Only with language servers on (lsp in config.toml): a tool
		// that can only say they are off is not worth its spec's tokens.
		r.Add(NewDiagnostics(w))
	}
	return r
}
