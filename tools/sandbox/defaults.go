package sandbox

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
)

// DefaultDenyRead returns the paths a confined command may not read unless
// configured otherwise: the keys and credentials in ~/.ssh, ~/.aws and
// ~/.gnupg, and tern's own config.toml (which may hold the API key) in
// ternHome. An empty home or ternHome leaves its entries out.
func DefaultDenyRead(home, ternHome string) []string {
	var out []string
	if home != "" {
		for _, d := range []string{".ssh", ".aws", ".gnupg"} {
			out = append(out, filepath.Join(home, d))
		}
	}
	if ternHome != "" {
		out = append(out, filepath.Join(ternHome, "config.toml"))
	}
	return out
}

// ToolchainCaches returns the caches build tools write to outside the
// workspace, computed the way the tools do, without running them: Go's
// build cache (GOCACHE, else $XDG_CACHE_HOME/go-build, else
// ~/.cache/go-build) and module cache (GOMODCACHE, else the first GOPATH
// entry's pkg/mod, else ~/go/pkg/mod), with values set by `go env -w`
// honoured; npm's cache (npm_config_cache, else ~/.npm); pip's cache
// (PIP_CACHE_DIR, else $XDG_CACHE_HOME/pip, else ~/.cache/pip); and
// cargo's registry and git checkouts ($CARGO_HOME/registry and /git, else
// under ~/.cargo). getenv reads the environment the commands get. Every
// path is under home or where the tool's own variable points, so the
// launcher may create those that are missing (see Policy.Caches).
func ToolchainCaches(getenv func(string) string, home string) []string {
	goenv := goEnvFile(getenv, home)
	get := func(name string) string {
		if v := getenv(name); v != "" {
			return v
		}
		return goenv[name]
	}
	var out []string
	add := func(p string) {
		if filepath.IsAbs(p) {
			out = append(out, filepath.Clean(p))
		}
	}
	switch c := get("GOCACHE"); {
	case c == "off":
	case c != "":
		add(c)
	case getenv("XDG_CACHE_HOME") != "":
		add(filepath.Join(getenv("XDG_CACHE_HOME"), "go-build"))
	case home != "":
		add(filepath.Join(home, ".cache", "go-build"))
	}
	switch m, gopath := get("GOMODCACHE"), get("GOPATH"); {
	case m != "":
		add(m)
	case gopath != "":
		add(filepath.Join(filepath.SplitList(gopath)[0], "pkg", "mod"))
	case home != "":
		add(filepath.Join(home, "go", "pkg", "mod"))
	}
	switch n := getenv("npm_config_cache"); {
	case n != "":
		add(n)
	case home != "":
		add(filepath.Join(home, ".npm"))
	}
	switch p := getenv("PIP_CACHE_DIR"); {
	case p != "":
		add(p)
	case getenv("XDG_CACHE_HOME") != "":
		add(filepath.Join(getenv("XDG_CACHE_HOME"), "pip"))
	case home != "":
		add(filepath.Join(home, ".cache", "pip"))
	}
	cargo := getenv("CARGO_HOME")
	if cargo == "" && home != "" {
		cargo = filepath.Join(home, ".cargo")
	}
	if cargo != "" {
		add(filepath.Join(cargo, "registry"))
		add(filepath.Join(cargo, "git"))
	}
	return out
}

// GoEnvFile returns the file `go env -w` writes ($GOENV, else
// $XDG_CONFIG_HOME/go/env, else ~/.config/go/env), or "" when there is
// none (GOENV=off, no home).
func GoEnvFile(getenv func(string) string, home string) string {
	switch path := getenv("GOENV"); {
	case path == "off":
		return ""
	case path != "":
		return path
	case getenv("XDG_CONFIG_HOME") != "":
		return filepath.Join(getenv("XDG_CONFIG_HOME"), "go", "env")
	case home != "":
		return filepath.Join(home, ".config", "go", "env")
	}
	return ""
}

// goEnvFile reads the settings `go env -w` wrote ($GOENV, else
// $XDG_CONFIG_HOME/go/env, else ~/.config/go/env); a missing or unreadable
// file gives none.
func goEnvFile(getenv func(string) string, home string) map[string]string {
	path := GoEnvFile(getenv, home)
	if path == "" {
		return nil
	}
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer func() { _ = f.Close() }()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(strings.TrimSpace(sc.Text()), "=")
		if ok && k != "" && !strings.HasPrefix(k, "#") {
			out[k] = strings.Trim(v, `"'`)
		}
	}
	return out
}
