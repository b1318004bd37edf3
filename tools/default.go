package tools

// DefaultRegistry returns the seven tools tern offers the model, in the
// fixed order read_file, list_files, grep, edit_file, write_file, run_shell,
// todo_write, the file tools confined to workspace w. env is the environment run_shell passes on to
// commands (cmd/tern passes os.Environ()); tern's own API keys are removed
// from it (see FilterEnv).
func DefaultRegistry(w *Workspace, env []string) *Registry {
	return DefaultRegistryWith(w, env, ShellOptions{})
}

// DefaultRegistryWith is DefaultRegistry with run_shell's options (its
// sandbox and session TMPDIR; see NewRunShellWith).
func DefaultRegistryWith(w *Workspace, env []string, shell ShellOptions) *Registry {
	return NewRegistry(
		NewReadFile(w),
		NewListFiles(w),
		NewGrep(w),
		NewEditFile(w),
		NewWriteFile(w),
		NewRunShellWith(w, env, shell),
		NewTodoWrite(),
	)
}
