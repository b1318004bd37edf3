package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRememberedModel checks where a model picked with /model stands: above
// config.toml's model while that file still names what it named at the
// pick, below the environment and the flags.
func TestRememberedModel(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		file    string // config.toml when the model was picked
		fileNow string // config.toml at the next start
		env     map[string]string
		flags   Flags
		want    string
		src     string
	}{
		{name: "no config: the pick wins over the default", want: "picked", src: "picked with /model"},
		{name: "config unchanged: the pick wins", file: `model = "file-model"`, fileNow: `model = "file-model"`, want: "picked", src: "picked with /model"},
		{name: "config changed since: the file wins", file: `model = "file-model"`, fileNow: `model = "newer-model"`, want: "newer-model", src: "config "},
		{name: "config model added since: the file wins", fileNow: `model = "newer-model"`, want: "newer-model", src: "config "},
		{name: "env wins", env: map[string]string{EnvModel: "env-model"}, want: "env-model", src: "env LLM_MODEL"},
		{name: "flag wins", flags: Flags{Model: ptr("flag-model")}, want: "flag-model", src: "flag --model"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			home := writeHome(t, tt.file)
			env := map[string]string{EnvHome: home}
			c, err := Load(Inputs{Getenv: envFunc(env)})
			if err != nil {
				t.Fatal(err)
			}
			if err := c.RememberModel("picked"); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(tt.fileNow), 0o600); err != nil {
				t.Fatal(err)
			}
			for k, v := range tt.env {
				env[k] = v
			}
			c, err = Load(Inputs{Getenv: envFunc(env), Flags: tt.flags})
			if err != nil {
				t.Fatal(err)
			}
			if c.Model.V != tt.want || !strings.HasPrefix(c.Model.Source.String(), tt.src) {
				t.Errorf("model = %q from %q, want %q from %q…", c.Model.V, c.Model.Source, tt.want, tt.src)
			}
		})
	}
}

// TestInterfaceKeys checks that the interface's settings are config keys
// (theme once made tern refuse to start) and that --theme wins.
func TestInterfaceKeys(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		file      string
		flags     Flags
		theme     string
		mouse     bool
		title     string
		wantError string
	}{
		{name: "defaults", theme: "auto"},
		{name: "from the file", file: "theme = \"light\"\nmouse = true\ntitle_model = \"small\"\n", theme: "light", mouse: true, title: "small"},
		{name: "flag over file", file: `theme = "light"`, flags: Flags{Theme: ptr("dark")}, theme: "dark"},
		{name: "bad theme", file: `theme = "blue"`, theme: "blue", wantError: `theme from config`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			home := writeHome(t, tt.file)
			c, err := Load(Inputs{Getenv: envFunc(map[string]string{EnvHome: home}), Flags: tt.flags})
			switch {
			case tt.wantError == "" && err != nil:
				t.Fatal(err)
			case tt.wantError != "" && (err == nil || !strings.Contains(err.Error(), tt.wantError)):
				t.Fatalf("error %v, want one containing %q", err, tt.wantError)
			}
			if c.Theme.V != tt.theme || c.Mouse.V != tt.mouse || c.TitleModel.V != tt.title {
				t.Errorf("theme %q mouse %t title_model %q, want %q %t %q", c.Theme.V, c.Mouse.V, c.TitleModel.V, tt.theme, tt.mouse, tt.title)
			}
		})
	}
}
