package lsp

import (
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
)

// ServerConfig says how to run one language server and which files it covers.
type ServerConfig struct {
	// Name identifies the server in config.toml ([lsp.NAME]) and messages.
	Name string
	// Command is the program, found on PATH unless it is a path; Args follow it.
	Command string
	Args    []string
	// Extensions are the file name endings it covers, with their dot (".go").
	Extensions []string
	// RootMarkers are names whose folder is the server's root ("go.mod"):
	// the nearest one above a file, inside the workspace; the workspace
	// itself when there is none.
	RootMarkers []string
	// Enabled false leaves the server out.
	Enabled bool
	// InitOptions are sent as the initialize request's
	// initializationOptions (known servers only).
	InitOptions map[string]any
}

// Override is a [lsp.NAME] table of config.toml: the fields set replace
// those of the known server of that name, or make up a new one.
type Override struct {
	Command     string
	Args        []string
	Extensions  []string
	RootMarkers []string
	// Enabled nil keeps the known server's setting (on).
	Enabled *bool
}

// KnownServers are the servers tern looks for on PATH, in the order it
// prefers them when two cover the same files.
func KnownServers() []ServerConfig {
	return []ServerConfig{
		{Name: "gopls", Command: "gopls", Extensions: []string{".go"}, RootMarkers: []string{"go.work", "go.mod"},
			// The deep (cross-package) pass comes this soon after a change,
			// so callers broken in other packages arrive within lsp_wait.
			InitOptions: map[string]any{"diagnosticsDelay": "100ms"}},
		{Name: "rust-analyzer", Command: "rust-analyzer", Extensions: []string{".rs"}, RootMarkers: []string{"Cargo.toml"},
			// No build scripts, proc macros or cargo check: they run the
			// project's code outside the sandbox, and the model writes
			// that code (a build.rs under auto-edit would run unasked).
			InitOptions: map[string]any{
				"cargo":       map[string]any{"buildScripts": map[string]any{"enable": false}},
				"procMacro":   map[string]any{"enable": false},
				"checkOnSave": false,
			}},
		{Name: "pyright", Command: "pyright-langserver", Args: []string{"--stdio"}, Extensions: []string{".py", ".pyi"},
			RootMarkers: []string{"pyrightconfig.json", "pyproject.toml", "setup.py", "setup.cfg", "requirements.txt"}},
		{Name: "basedpyright", Command: "basedpyright-langserver", Args: []string{"--stdio"}, Extensions: []string{".py", ".pyi"},
			RootMarkers: []string{"pyrightconfig.json", "pyproject.toml", "setup.py", "setup.cfg", "requirements.txt"}},
		{Name: "typescript", Command: "typescript-language-server", Args: []string{"--stdio"},
			Extensions:  []string{".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts"},
			RootMarkers: []string{"tsconfig.json", "jsconfig.json", "package.json"}},
		{Name: "clangd", Command: "clangd", Extensions: []string{".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx"},
			RootMarkers: []string{"compile_commands.json", "compile_flags.txt", ".clangd"}},
		{Name: "zls", Command: "zls", Extensions: []string{".zig"}, RootMarkers: []string{"build.zig"}},
		{Name: "lua-language-server", Command: "lua-language-server", Extensions: []string{".lua"}, RootMarkers: []string{".luarc.json"}},
		{Name: "bash-language-server", Command: "bash-language-server", Args: []string{"start"}, Extensions: []string{".sh", ".bash"}},
	}
}

// Merge applies config.toml's [lsp.NAME] tables to the known servers:
// overrides of known names replace the fields they set, new names (sorted)
// come first so that they win over known servers for the same files.
// Disabled servers are left out.
func Merge(known []ServerConfig, overrides map[string]Override) []ServerConfig {
	var added, out []ServerConfig
	names := make([]string, 0, len(overrides))
	for n := range overrides {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		o := overrides[n]
		i := slices.IndexFunc(known, func(s ServerConfig) bool { return s.Name == n })
		if i >= 0 {
			continue
		}
		s := ServerConfig{Name: n, Command: o.Command, Args: o.Args, Extensions: normExts(o.Extensions), RootMarkers: o.RootMarkers, Enabled: true}
		if s.Command == "" {
			s.Command = n
		}
		if o.Enabled != nil {
			s.Enabled = *o.Enabled
		}
		added = append(added, s)
	}
	for _, k := range known {
		k.Enabled = true
		if o, ok := overrides[k.Name]; ok {
			if o.Command != "" {
				k.Command = o.Command
				k.InitOptions = nil // meant for the known program
			}
			if o.Args != nil {
				k.Args = o.Args
			}
			if o.Extensions != nil {
				k.Extensions = normExts(o.Extensions)
			}
			if o.RootMarkers != nil {
				k.RootMarkers = o.RootMarkers
			}
			if o.Enabled != nil {
				k.Enabled = *o.Enabled
			}
		}
		added = append(added, k)
	}
	for _, s := range added {
		if s.Enabled && s.Command != "" && len(s.Extensions) > 0 {
			out = append(out, s)
		}
	}
	return out
}

// normExts writes extensions with a leading dot and in lower case.
func normExts(exts []string) []string {
	out := make([]string, 0, len(exts))
	for _, e := range exts {
		e = strings.ToLower(strings.TrimSpace(e))
		if e == "" {
			continue
		}
		if !strings.HasPrefix(e, ".") {
			e = "." + e
		}
		out = append(out, e)
	}
	return out
}

// covers reports whether the server handles the file at path.
func (s ServerConfig) covers(path string) bool {
	return slices.Contains(s.Extensions, strings.ToLower(filepath.Ext(path)))
}

// languageID is the protocol's language identifier for a file.
func languageID(path string) string {
	ext := strings.ToLower(filepath.Ext(path))
	switch ext {
	case ".go":
		return "go"
	case ".rs":
		return "rust"
	case ".py", ".pyi":
		return "python"
	case ".ts", ".mts", ".cts":
		return "typescript"
	case ".tsx":
		return "typescriptreact"
	case ".js", ".mjs", ".cjs":
		return "javascript"
	case ".jsx":
		return "javascriptreact"
	case ".c", ".h":
		return "c"
	case ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx":
		return "cpp"
	case ".sh", ".bash":
		return "shellscript"
	}
	return strings.TrimPrefix(ext, ".")
}

// OnPath splits servers into those whose command is found on PATH and
// those whose command is not, by name, for tern doctor and /lsp.
func OnPath(servers []ServerConfig) (found, missing []string) {
	for _, s := range servers {
		if _, err := exec.LookPath(s.Command); err == nil {
			found = append(found, s.Name)
		} else {
			missing = append(missing, s.Name)
		}
	}
	return found, missing
}
