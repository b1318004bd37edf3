package config

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestSandboxSettings(t *testing.T) {
	t.Parallel()
	user := "/home/u"
	for _, tc := range []struct {
		name      string
		file      string
		flags     Flags
		sandbox   bool
		src       string
		noNet     bool
		writable  []string
		denyRead  func(home string) []string
		wantError string
	}{
		{name: "defaults", sandbox: true, src: "default",
			denyRead: func(home string) []string {
				return []string{"/home/u/.ssh", "/home/u/.aws", "/home/u/.gnupg", filepath.Join(home, "config.toml")}
			}},
		{name: "file", file: "sandbox = \"off\"\nno_network = true\nwritable_roots = [\"~/.cargo\", \"/opt/cache/\"]\ndeny_read = [\"~\"]\n",
			sandbox: false, src: "config ", noNet: true, writable: []string{"/home/u/.cargo", "/opt/cache"},
			denyRead: func(string) []string { return []string{"/home/u"} }},
		{name: "file as booleans", file: "sandbox = false\n", sandbox: false, src: "config "},
		{name: "flags beat the file", file: "sandbox = \"off\"\nno_network = true\n",
			flags: Flags{Sandbox: ptr("on"), NoNetwork: ptr(false)}, sandbox: true, src: "flag --sandbox"},
		{name: "bad flag", flags: Flags{Sandbox: ptr("maybe")}, wantError: `--sandbox: "maybe" is not on or off`},
		{name: "bad file value", file: "sandbox = \"sometimes\"\n", wantError: "not on or off"},
		{name: "relative root", file: "writable_roots = [\"build/cache\"]\n", wantError: `writable_roots from config`},
		{name: "relative deny path", file: "deny_read = [\"secrets\"]\n", wantError: `"secrets" is not an absolute path`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			home := writeHome(t, tc.file)
			c, err := Load(Inputs{Flags: tc.flags, Getenv: envFunc(map[string]string{EnvHome: home}), UserHome: user})
			if tc.wantError != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantError) {
					t.Fatalf("error %v, want one with %q", err, tc.wantError)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.Sandbox.V != tc.sandbox || !strings.HasPrefix(c.Sandbox.Source.String(), tc.src) || c.NoNetwork.V != tc.noNet {
				t.Errorf("sandbox %v (%s), no network %v", c.Sandbox.V, c.Sandbox.Source, c.NoNetwork.V)
			}
			if len(c.WritableRoots.V) != len(tc.writable) || len(tc.writable) > 0 && !reflect.DeepEqual(c.WritableRoots.V, tc.writable) {
				t.Errorf("writable roots %q, want %q", c.WritableRoots.V, tc.writable)
			}
			if tc.denyRead != nil && !reflect.DeepEqual(c.DenyRead.V, tc.denyRead(home)) {
				t.Errorf("deny read %q, want %q", c.DenyRead.V, tc.denyRead(home))
			}
		})
	}
}
