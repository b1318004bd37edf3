package sandbox

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestStatus(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name               string
		enabled, noNet, ok bool
		abi                int
		active, blocked    bool
		summary, warning   string
	}{
		{"on", true, false, true, 7, true, false, "Landlock ABI 7", ""},
		{"on without network", true, true, true, 7, true, true, "network blocked", ""},
		{"no-network on an old kernel", true, true, true, 3, true, false, "network open: --no-network needs", "no effect"},
		{"off", false, true, true, 7, false, false, "--sandbox off", ""},
		{"unavailable", true, false, false, 0, false, false, "tern relies on approvals", "no sandbox: why"},
		{"off and unavailable", false, false, false, 0, false, false, "--sandbox off", ""},
	} {
		st := status(tc.enabled, tc.noNet, tc.abi, tc.ok, "why")
		if st.Active != tc.active || st.NetworkBlocked != tc.blocked || !strings.Contains(st.Summary, tc.summary) ||
			(tc.warning == "") != (st.Warning == "") || !strings.Contains(st.Warning, tc.warning) {
			t.Errorf("%s: %+v", tc.name, st)
		}
	}
}

func TestDefaultDenyRead(t *testing.T) {
	t.Parallel()
	got := DefaultDenyRead("/home/u", "/home/u/.tern")
	want := []string{"/home/u/.ssh", "/home/u/.aws", "/home/u/.gnupg", "/home/u/.tern/config.toml"}
	if !slices.Equal(got, want) {
		t.Errorf("DefaultDenyRead = %v", got)
	}
	if got := DefaultDenyRead("", ""); len(got) != 0 {
		t.Errorf("without homes: %v", got)
	}
}

func TestToolchainCaches(t *testing.T) {
	t.Parallel()
	goenvDir := t.TempDir()
	goenv := filepath.Join(goenvDir, "env")
	if err := os.WriteFile(goenv, []byte("GOCACHE=/w/cache\nGOMODCACHE='/w/mod'\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		env  map[string]string
		want []string
	}{
		{"defaults", map[string]string{"GOENV": "off"}, []string{"/h/.cache/go-build", "/h/go/pkg/mod", "/h/.npm", "/h/.cache/pip", "/h/.cargo/registry", "/h/.cargo/git"}},
		{"xdg and gopath", map[string]string{"GOENV": "off", "XDG_CACHE_HOME": "/x", "GOPATH": "/g1:/g2"}, []string{"/x/go-build", "/g1/pkg/mod", "/h/.npm", "/x/pip", "/h/.cargo/registry", "/h/.cargo/git"}},
		{"explicit", map[string]string{"GOENV": "off", "GOCACHE": "/c", "GOMODCACHE": "/m", "npm_config_cache": "/n", "PIP_CACHE_DIR": "/p", "CARGO_HOME": "/r"}, []string{"/c", "/m", "/n", "/p", "/r/registry", "/r/git"}},
		{"cache off, relative ignored", map[string]string{"GOENV": "off", "GOCACHE": "off", "GOMODCACHE": "rel", "PIP_CACHE_DIR": "rel", "CARGO_HOME": "rel"}, []string{"/h/.npm"}},
		{"go env -w file", map[string]string{"GOENV": goenv}, []string{"/w/cache", "/w/mod", "/h/.npm", "/h/.cache/pip", "/h/.cargo/registry", "/h/.cargo/git"}},
		{"environment beats go env -w", map[string]string{"GOENV": goenv, "GOCACHE": "/e"}, []string{"/e", "/w/mod", "/h/.npm", "/h/.cache/pip", "/h/.cargo/registry", "/h/.cargo/git"}},
	} {
		got := ToolchainCaches(func(k string) string { return tc.env[k] }, "/h")
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}
