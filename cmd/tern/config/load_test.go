package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/ternhq/tern/tools"
)

func ptr[T any](v T) *T { return &v }

// writeHome creates a TERN_HOME with the given config.toml (none when empty).
func writeHome(t *testing.T, toml string) string {
	t.Helper()
	home := t.TempDir()
	if toml != "" {
		if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(toml), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return home
}

func envFunc(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestPrecedenceAndSources(t *testing.T) {
	t.Parallel()
	const fileAll = `
base_url = "http://file.example/v1"
api_key = "file-key-0123456789"
model = "file-model"
mock = true
approval = "read-only"
max_steps = 7
max_attempts = 2
`
	type want struct {
		val string
		src string
	}
	tests := []struct {
		name  string
		file  string
		env   map[string]string
		flags Flags
		get   func(*Config) (string, Source)
		want  want
	}{
		{
			name: "base URL default",
			get:  func(c *Config) (string, Source) { return c.BaseURL.V, c.BaseURL.Source },
			want: want{DefaultBaseURL, "default"},
		},
		{
			name: "base URL from file",
			file: fileAll,
			get:  func(c *Config) (string, Source) { return c.BaseURL.V, c.BaseURL.Source },
			want: want{"http://file.example/v1", "config "},
		},
		{
			name: "OPENAI_BASE_URL beats file",
			file: fileAll,
			env:  map[string]string{EnvOpenAIBaseURL: "http://openai-env.example/v1"},
			get:  func(c *Config) (string, Source) { return c.BaseURL.V, c.BaseURL.Source },
			want: want{"http://openai-env.example/v1", "env OPENAI_BASE_URL"},
		},
		{
			name: "LLM_BASE_URL beats OPENAI_BASE_URL",
			file: fileAll,
			env:  map[string]string{EnvOpenAIBaseURL: "http://openai-env.example/v1", EnvBaseURL: "http://llm-env.example/v1/"},
			get:  func(c *Config) (string, Source) { return c.BaseURL.V, c.BaseURL.Source },
			want: want{"http://llm-env.example/v1", "env LLM_BASE_URL"},
		},
		{
			name:  "flag beats everything",
			file:  fileAll,
			env:   map[string]string{EnvBaseURL: "http://llm-env.example/v1"},
			flags: Flags{BaseURL: ptr("http://flag.example/v1")},
			get:   func(c *Config) (string, Source) { return c.BaseURL.V, c.BaseURL.Source },
			want:  want{"http://flag.example/v1", "flag --base-url"},
		},
		{
			name: "empty env variable counts as unset",
			file: fileAll,
			env:  map[string]string{EnvBaseURL: ""},
			get:  func(c *Config) (string, Source) { return c.BaseURL.V, c.BaseURL.Source },
			want: want{"http://file.example/v1", "config "},
		},
		{
			name: "key from file",
			file: fileAll,
			get:  func(c *Config) (string, Source) { return c.APIKey.V, c.APIKey.Source },
			want: want{"file-key-0123456789", "config "},
		},
		{
			name: "key OPENAI_API_KEY fallback",
			file: fileAll,
			env:  map[string]string{EnvOpenAIAPIKey: "openai-key"},
			get:  func(c *Config) (string, Source) { return c.APIKey.V, c.APIKey.Source },
			want: want{"openai-key", "env OPENAI_API_KEY"},
		},
		{
			name: "key LLM_API_KEY wins",
			env:  map[string]string{EnvOpenAIAPIKey: "openai-key", EnvAPIKey: "llm-key"},
			get:  func(c *Config) (string, Source) { return c.APIKey.V, c.APIKey.Source },
			want: want{"llm-key", "env LLM_API_KEY"},
		},
		{
			name: "key default is empty",
			get:  func(c *Config) (string, Source) { return c.APIKey.V, c.APIKey.Source },
			want: want{"", "default"},
		},
		{
			name: "model default",
			get:  func(c *Config) (string, Source) { return c.Model.V, c.Model.Source },
			want: want{DefaultModel, "default"},
		},
		{
			name: "model OPENAI_MODEL over file",
			file: fileAll,
			env:  map[string]string{EnvOpenAIModel: "openai/gpt-x"},
			get:  func(c *Config) (string, Source) { return c.Model.V, c.Model.Source },
			want: want{"openai/gpt-x", "env OPENAI_MODEL"},
		},
		{
			name:  "model flag over LLM_MODEL",
			env:   map[string]string{EnvModel: "env-model"},
			flags: Flags{Model: ptr("qwen2.5-coder:7b")},
			get:   func(c *Config) (string, Source) { return c.Model.V, c.Model.Source },
			want:  want{"qwen2.5-coder:7b", "flag --model"},
		},
		{
			name: "mock from file",
			file: fileAll,
			get:  func(c *Config) (string, Source) { return boolStr(c.Mock.V), c.Mock.Source },
			want: want{"true", "config "},
		},
		{
			name: "MOCK=0 overrides file",
			file: fileAll,
			env:  map[string]string{EnvMock: "0"},
			get:  func(c *Config) (string, Source) { return boolStr(c.Mock.V), c.Mock.Source },
			want: want{"false", "env MOCK"},
		},
		{
			name:  "--mock=false overrides MOCK=1",
			env:   map[string]string{EnvMock: "1"},
			flags: Flags{Mock: ptr(false)},
			get:   func(c *Config) (string, Source) { return boolStr(c.Mock.V), c.Mock.Source },
			want:  want{"false", "flag --mock"},
		},
		{
			name: "approval default",
			get:  func(c *Config) (string, Source) { return c.Approval.V, c.Approval.Source },
			want: want{"ask", "default"},
		},
		{
			name: "approval from file",
			file: fileAll,
			get:  func(c *Config) (string, Source) { return c.Approval.V, c.Approval.Source },
			want: want{"read-only", "config "},
		},
		{
			name:  "approval flag over file",
			file:  fileAll,
			flags: Flags{Approval: ptr("full-auto")},
			get:   func(c *Config) (string, Source) { return c.Approval.V, c.Approval.Source },
			want:  want{"full-auto", "flag --approval"},
		},
		{
			name: "max steps from file",
			file: fileAll,
			get:  func(c *Config) (string, Source) { return itoa(c.MaxSteps.V), c.MaxSteps.Source },
			want: want{"7", "config "},
		},
		{
			name:  "max steps flag",
			file:  fileAll,
			flags: Flags{MaxSteps: ptr(3)},
			get:   func(c *Config) (string, Source) { return itoa(c.MaxSteps.V), c.MaxSteps.Source },
			want:  want{"3", "flag --max-steps"},
		},
		{
			name: "max repeats default",
			get:  func(c *Config) (string, Source) { return itoa(c.MaxRepeats.V), c.MaxRepeats.Source },
			want: want{"5", "default"},
		},
		{
			name: "max repeats from file",
			file: "max_repeats = 8\n",
			get:  func(c *Config) (string, Source) { return itoa(c.MaxRepeats.V), c.MaxRepeats.Source },
			want: want{"8", "config "},
		},
		{
			name: "max parallel default",
			get:  func(c *Config) (string, Source) { return itoa(c.MaxParallel.V), c.MaxParallel.Source },
			want: want{"4", "default"},
		},
		{
			name: "max parallel from file",
			file: "max_parallel = 1\n",
			get:  func(c *Config) (string, Source) { return itoa(c.MaxParallel.V), c.MaxParallel.Source },
			want: want{"1", "config "},
		},
		{
			name: "subagent model from file",
			file: "subagent_model = \"small\"\n",
			get:  func(c *Config) (string, Source) { return c.SubagentModel.V, c.SubagentModel.Source },
			want: want{"small", "config "},
		},
		{
			name: "max attempts default",
			get:  func(c *Config) (string, Source) { return itoa(c.MaxAttempts.V), c.MaxAttempts.Source },
			want: want{"4", "default"},
		},
		{
			name:  "max attempts flag",
			file:  fileAll,
			flags: Flags{MaxAttempts: ptr(1)},
			get:   func(c *Config) (string, Source) { return itoa(c.MaxAttempts.V), c.MaxAttempts.Source },
			want:  want{"1", "flag --max-attempts"},
		},
		{
			name: "output cap default",
			get:  func(c *Config) (string, Source) { return itoa(c.OutputCap.V), c.OutputCap.Source },
			want: want{itoa(tools.DefaultOutputCap), "default"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			home := writeHome(t, tc.file)
			env := map[string]string{EnvHome: home}
			for k, v := range tc.env {
				env[k] = v
			}
			c, err := Load(Inputs{Flags: tc.flags, Getenv: envFunc(env)})
			if err != nil {
				t.Fatalf("Load: %v", err)
			}
			got, src := tc.get(c)
			if got != tc.want.val {
				t.Errorf("value = %q, want %q", got, tc.want.val)
			}
			wantSrc := tc.want.src
			if wantSrc == "config " {
				wantSrc += filepath.Join(home, "config.toml")
			}
			if src.String() != wantSrc {
				t.Errorf("source = %q, want %q", src.String(), wantSrc)
			}
		})
	}
}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestHomeDefaultsToUserHome(t *testing.T) {
	t.Parallel()
	user := t.TempDir()
	c, err := Load(Inputs{Getenv: envFunc(nil), UserHome: user})
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(user, ".tern"); c.Home.V != want || c.Home.Source.Kind != SourceDefault {
		t.Errorf("home = %q (%s), want %q (default)", c.Home.V, c.Home.Source, want)
	}
	if c.FileLoaded {
		t.Error("FileLoaded = true for a missing file")
	}
	if c.File != filepath.Join(user, ".tern", "config.toml") {
		t.Errorf("file = %q", c.File)
	}
}

func TestFileExtras(t *testing.T) {
	t.Parallel()
	home := writeHome(t, `
allow = ["run_shell:go test *", "edit_file:docs/**"]
deny = ["run_shell:git push *"]
output_cap = 4096
secret_patterns = ["*.secret"]
web_fetch_allow_private = true

[models."openai/gpt-4o"]
vision = false
context_window = 128000
price_input = 2.5
price_cached_input = 1.25
price_output = 10
headers = { "HTTP-Referer" = "https://example.com", "X-Title" = "tern" }
`)
	c, err := Load(Inputs{Getenv: envFunc(map[string]string{EnvHome: home})})
	if err != nil {
		t.Fatal(err)
	}
	if !c.FileLoaded {
		t.Error("FileLoaded = false")
	}
	if want := []string{"run_shell:go test *", "edit_file:docs/**"}; !reflect.DeepEqual(c.Allow.V, want) || c.Allow.Source.Kind != SourceFile {
		t.Errorf("allow = %q (%s)", c.Allow.V, c.Allow.Source)
	}
	if want := []string{"run_shell:git push *"}; !reflect.DeepEqual(c.Deny.V, want) {
		t.Errorf("deny = %q", c.Deny.V)
	}
	if c.OutputCap.V != 4096 || c.OutputCap.Source.Kind != SourceFile {
		t.Errorf("output cap = %d (%s)", c.OutputCap.V, c.OutputCap.Source)
	}
	if want := []string{"*.secret"}; !reflect.DeepEqual(c.SecretPatterns.V, want) {
		t.Errorf("secret patterns = %q", c.SecretPatterns.V)
	}
	ms := c.ModelSettings("openai/gpt-4o")
	want := ModelSettings{
		ContextWindow: 128000, PriceInput: 2.5, PriceCachedInput: 1.25, PriceOutput: 10,
		Headers: map[string]string{"HTTP-Referer": "https://example.com", "X-Title": "tern"},
		Vision:  new(bool),
	}
	if !c.WebFetchAllowPrivate.V || c.WebFetchAllowPrivate.Source.Kind != SourceFile {
		t.Errorf("web_fetch_allow_private = %v (%s)", c.WebFetchAllowPrivate.V, c.WebFetchAllowPrivate.Source)
	}
	if !reflect.DeepEqual(ms, want) {
		t.Errorf("model settings = %+v, want %+v", ms, want)
	}
	if got := c.ModelSettings("other"); !reflect.DeepEqual(got, ModelSettings{}) {
		t.Errorf("unknown model settings = %+v", got)
	}
}

func TestDefaultsForLists(t *testing.T) {
	t.Parallel()
	c, err := Load(Inputs{Getenv: envFunc(map[string]string{EnvHome: writeHome(t, "")})})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c.SecretPatterns.V, tools.DefaultSecretPatterns) || c.SecretPatterns.Source.Kind != SourceDefault {
		t.Errorf("secret patterns = %q (%s)", c.SecretPatterns.V, c.SecretPatterns.Source)
	}
	if len(c.Allow.V) != 0 || len(c.Deny.V) != 0 {
		t.Errorf("rules = %q / %q, want none", c.Allow.V, c.Deny.V)
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		file  string
		env   map[string]string
		flags Flags
		want  []string
	}{
		{
			name: "unknown keys are named",
			file: "model = \"m\"\nmodle = \"x\"\n[models.\"m\"]\ncontext = 5\n",
			want: []string{"unknown keys", "modle", "models.m.context", "docs/config.md"},
		},
		{
			name: "bad TOML",
			file: "model = \n",
			want: []string{"config file", "fix the TOML syntax"},
		},
		{
			name: "wrong type",
			file: "max_steps = \"many\"\n",
			want: []string{"config file", "max_steps"},
		},
		{
			name: "bad base URL",
			env:  map[string]string{EnvBaseURL: "localhost:11434"},
			want: []string{"base URL from env LLM_BASE_URL", "http://localhost:11434/v1"},
		},
		{
			name: "bad MOCK",
			env:  map[string]string{EnvMock: "maybe"},
			want: []string{"MOCK=\"maybe\"", "use 1 or 0"},
		},
		{
			name:  "max steps too small",
			flags: Flags{MaxSteps: ptr(0)},
			want:  []string{"max steps from flag --max-steps is 0", "at least 1"},
		},
		{
			name: "max repeats of one",
			file: "max_repeats = 1\n",
			want: []string{"max repeats from config", "0 to turn the loop guard off"},
		},
		{
			name: "max parallel of zero",
			file: "max_parallel = 0\n",
			want: []string{"max parallel from config", "use 1"},
		},
		{
			name: "max attempts too small",
			file: "max_attempts = 0\n",
			want: []string{"max attempts from config", "at least 1"},
		},
		{
			name:  "empty model",
			flags: Flags{Model: ptr(" ")},
			want:  []string{"model from flag --model is empty"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{EnvHome: writeHome(t, tc.file)}
			for k, v := range tc.env {
				env[k] = v
			}
			c, err := Load(Inputs{Flags: tc.flags, Getenv: envFunc(env)})
			if c == nil {
				t.Fatal("Load returned a nil config")
			}
			if err == nil {
				t.Fatal("Load succeeded, want an error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestOffline(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		env     map[string]string
		flags   Flags
		offline bool
		reason  string
	}{
		{"no key, hosted gateway", nil, Flags{}, true, "no API key"},
		{"key set", map[string]string{EnvAPIKey: "k"}, Flags{}, false, ""},
		{"MOCK=1 with key", map[string]string{EnvAPIKey: "k", EnvMock: "1"}, Flags{}, true, "env MOCK"},
		{"--mock", map[string]string{EnvAPIKey: "k"}, Flags{Mock: ptr(true)}, true, "flag --mock"},
		{"local Ollama needs no key", map[string]string{EnvBaseURL: "http://localhost:11434/v1"}, Flags{}, false, ""},
		{"loopback IP needs no key", map[string]string{EnvBaseURL: "http://127.0.0.1:8080/v1"}, Flags{}, false, ""},
		{"IPv6 loopback needs no key", nil, Flags{BaseURL: ptr("http://[::1]:8000/v1")}, false, ""},
		{"remote host without key", map[string]string{EnvBaseURL: "https://openrouter.ai/api/v1"}, Flags{}, true, "no API key"},
		{"local but MOCK=1", map[string]string{EnvBaseURL: "http://localhost:11434/v1", EnvMock: "1"}, Flags{}, true, "mock"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			env := map[string]string{EnvHome: writeHome(t, "")}
			for k, v := range tc.env {
				env[k] = v
			}
			c, err := Load(Inputs{Flags: tc.flags, Getenv: envFunc(env)})
			if err != nil {
				t.Fatal(err)
			}
			off, why := c.Offline()
			if off != tc.offline || !strings.Contains(why, tc.reason) {
				t.Errorf("Offline() = %v, %q; want %v, containing %q", off, why, tc.offline, tc.reason)
			}
		})
	}
}
