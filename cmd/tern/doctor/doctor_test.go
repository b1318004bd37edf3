package doctor

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/cmd/tern/config"
	"github.com/ternhq/tern/provider/openai"
)

const testKey = "sk-test-0123456789abcdef"

// sseOK is a one-token streamed answer as OpenAI sends it.
const sseOK = `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"OK"},"finish_reason":null}]}

data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{},"finish_reason":"length"}]}

data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":1,"total_tokens":13}}

data: [DONE]

`

// gateway builds an httptest server from handlers for /v1/models and
// /v1/chat/completions.
func gateway(t *testing.T, models, chat http.HandlerFunc) string {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/models", models)
	mux.HandleFunc("/v1/chat/completions", chat)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv.URL + "/v1"
}

func listModels(ids ...string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		var parts []string
		for _, id := range ids {
			parts = append(parts, fmt.Sprintf(`{"id":%q,"object":"model","created":1,"owned_by":"x"}`, id))
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = fmt.Fprintf(w, `{"object":"list","data":[%s]}`, strings.Join(parts, ","))
	}
}

func streamOK(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	w.Header().Set("Content-Type", "text/event-stream")
	_, _ = io.WriteString(w, sseOK)
}

func status(code int, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		_, _ = io.WriteString(w, body)
	}
}

// slow answers only after the client has given up (or after 10 s). It
// reads the body first: only then does the server notice a client hanging up.
func slow(w http.ResponseWriter, r *http.Request) {
	_, _ = io.Copy(io.Discard, r.Body)
	select {
	case <-r.Context().Done():
	case <-time.After(10 * time.Second):
	}
}

// deadURL returns a base URL on a port nothing listens on.
func deadURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
	return "http://" + addr + "/v1"
}

type setup struct {
	env     map[string]string
	file    string
	timeout time.Duration
}

func run(t *testing.T, s setup) ([]Check, string) {
	t.Helper()
	home := t.TempDir()
	if s.file != "" {
		if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(s.file), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := map[string]string{config.EnvHome: home}
	for k, v := range s.env {
		env[k] = v
	}
	cfg, cfgErr := config.Load(config.Inputs{Getenv: func(k string) string { return env[k] }})
	opts := Options{Config: cfg, ConfigErr: cfgErr, Timeout: s.timeout}
	if off, _ := cfg.Offline(); !off {
		p, err := openai.New(openai.Config{BaseURL: cfg.BaseURL.V, APIKey: cfg.APIKey.V, Model: cfg.Model.V, MaxAttempts: 1})
		if err != nil {
			opts.GatewayErr = err
		} else {
			opts.Gateway = p
		}
	}
	checks := Run(context.Background(), opts)
	var b strings.Builder
	if err := Write(&b, checks); err != nil {
		t.Fatal(err)
	}
	return checks, b.String()
}

func find(checks []Check, name string) Check {
	for _, c := range checks {
		if c.Name == name {
			return c
		}
	}
	return Check{}
}

func TestDoctor(t *testing.T) {
	t.Parallel()
	type expect struct {
		name   string
		mark   Mark
		detail []string
		fix    string
	}
	tests := []struct {
		name   string
		setup  func(t *testing.T) setup
		failed bool
		want   []expect
	}{
		{
			name: "healthy gateway",
			setup: func(t *testing.T) setup {
				return setup{env: map[string]string{config.EnvBaseURL: gateway(t, listModels("gpt-4o-mini", "gpt-4o"), streamOK), config.EnvAPIKey: testKey}}
			},
			want: []expect{
				{"API key", Pass, []string{"sk-…cdef", "env LLM_API_KEY"}, ""},
				{"base URL", Pass, []string{"env LLM_BASE_URL"}, ""},
				{"model", Pass, []string{"gpt-4o-mini (default)"}, ""},
				{"gateway", Pass, []string{"listing 2 models"}, ""},
				{"model listed", Pass, []string{`"gpt-4o-mini" is offered`}, ""},
				{"streaming", Pass, []string{"first token after"}, ""},
			},
		},
		{
			name: "dead port",
			setup: func(t *testing.T) setup {
				return setup{env: map[string]string{config.EnvBaseURL: deadURL(t), config.EnvAPIKey: testKey}}
			},
			failed: true,
			want: []expect{
				{"gateway", Fail, []string{"connection refused"}, "start the server"},
				{"model listed", Skip, nil, ""},
				{"streaming", Skip, nil, ""},
			},
		},
		{
			name: "401",
			setup: func(t *testing.T) setup {
				body := `{"error":{"message":"Incorrect API key provided","type":"invalid_request_error","code":"invalid_api_key"}}`
				return setup{env: map[string]string{config.EnvBaseURL: gateway(t, status(401, body), status(401, body)), config.EnvAPIKey: testKey}}
			},
			failed: true,
			want: []expect{
				{"gateway", Fail, []string{"rejected the API key"}, "LLM_API_KEY"},
				{"streaming", Skip, nil, ""},
			},
		},
		{
			name: "model missing from the list and 404 from the completion",
			setup: func(t *testing.T) setup {
				body := `{"error":{"message":"The model 'gpt-4o-mini' does not exist","type":"invalid_request_error","code":"model_not_found"}}`
				return setup{env: map[string]string{
					config.EnvBaseURL: gateway(t, listModels("anthropic/claude-x", "openai/gpt-4o-mini", "meta/llama"), status(404, body)),
					config.EnvAPIKey:  testKey,
				}}
			},
			failed: true,
			want: []expect{
				{"gateway", Pass, []string{"3 models"}, ""},
				{"model listed", Fail, []string{`"gpt-4o-mini" is not among the 3 models`}, "one of: openai/gpt-4o-mini, anthropic/claude-x"},
				{"streaming", Fail, []string{"not found"}, "LLM_MODEL"},
			},
		},
		{
			name: "slow gateway times out",
			setup: func(t *testing.T) setup {
				return setup{env: map[string]string{config.EnvBaseURL: gateway(t, slow, slow), config.EnvAPIKey: testKey}, timeout: 150 * time.Millisecond}
			},
			failed: true,
			want: []expect{
				{"gateway", Fail, []string{"no answer within 150ms"}, "--timeout"},
				{"streaming", Skip, nil, ""},
			},
		},
		{
			name: "slow completion times out",
			setup: func(t *testing.T) setup {
				return setup{env: map[string]string{config.EnvBaseURL: gateway(t, listModels("gpt-4o-mini"), slow), config.EnvAPIKey: testKey}, timeout: 150 * time.Millisecond}
			},
			failed: true,
			want: []expect{
				{"gateway", Pass, nil, ""},
				{"streaming", Fail, []string{"within 150ms"}, "--timeout"},
			},
		},
		{
			name: "no model list but streaming works",
			setup: func(t *testing.T) setup {
				return setup{env: map[string]string{config.EnvBaseURL: gateway(t, status(404, "404 page not found"), streamOK), config.EnvAPIKey: testKey}}
			},
			want: []expect{
				{"gateway", Pass, []string{"lists no models"}, ""},
				{"model listed", Skip, nil, ""},
				{"streaming", Pass, nil, ""},
			},
		},
		{
			name: "local server without a key",
			setup: func(t *testing.T) setup {
				return setup{env: map[string]string{config.EnvBaseURL: gateway(t, listModels("gpt-4o-mini"), streamOK)}}
			},
			want: []expect{
				{"API key", Pass, []string{"local server"}, ""},
				{"streaming", Pass, nil, ""},
			},
		},
		{
			name:   "no key falls back offline",
			setup:  func(t *testing.T) setup { return setup{} },
			failed: true,
			want: []expect{
				{"API key", Fail, []string{"offline"}, "LLM_API_KEY"},
				{"provider", Pass, []string{"offline", "no API key"}, ""},
				{"gateway", Skip, []string{"offline"}, ""},
			},
		},
		{
			name:  "mock mode on purpose",
			setup: func(t *testing.T) setup { return setup{env: map[string]string{config.EnvMock: "1"}} },
			want: []expect{
				{"API key", Pass, []string{"mock mode"}, ""},
				{"provider", Pass, []string{"offline", "env MOCK"}, ""},
				{"streaming", Skip, nil, ""},
			},
		},
		{
			name: "config problems",
			setup: func(t *testing.T) setup {
				return setup{env: map[string]string{config.EnvMock: "1"}, file: "approval = \"yolo\"\nallow = [\"run shell:ls\"]\napi_key = \"sk-file-0123456789abcdef\"\n"}
			},
			failed: true,
			want: []expect{
				{"approval", Fail, []string{`"yolo"`, "config "}, "--approval ask"},
				{"rules", Fail, []string{"run shell:ls"}, "tool:pattern"},
				{"key file", Fail, []string{"other users can read it"}, "chmod 600"},
				{"API key", Pass, []string{"sk-…cdef"}, ""},
			},
		},
		{
			name: "unknown config keys",
			setup: func(t *testing.T) setup {
				return setup{env: map[string]string{config.EnvMock: "1"}, file: "modle = \"x\"\n"}
			},
			failed: true,
			want: []expect{
				{"config file", Fail, nil, ""},
				{"config", Fail, []string{"unknown keys modle"}, ""},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checks, out := run(t, tc.setup(t))
			if got := Failed(checks); got != tc.failed {
				t.Errorf("Failed = %v, want %v\n%s", got, tc.failed, out)
			}
			for _, w := range tc.want {
				c := find(checks, w.name)
				if c.Mark != w.mark {
					t.Errorf("%s: mark %s, want %s\n%s", w.name, c.Mark.Symbol(), w.mark.Symbol(), out)
					continue
				}
				for _, d := range w.detail {
					if !strings.Contains(c.Detail, d) {
						t.Errorf("%s: detail %q lacks %q", w.name, c.Detail, d)
					}
				}
				if !strings.Contains(c.Fix, w.fix) {
					t.Errorf("%s: fix %q lacks %q", w.name, c.Fix, w.fix)
				}
				if c.Mark == Fail && c.Fix == "" {
					t.Errorf("%s failed without a fix", w.name)
				}
			}
			if strings.Contains(out, testKey) || strings.Contains(out, "sk-file-0123456789abcdef") {
				t.Errorf("the report prints a key:\n%s", out)
			}
		})
	}
}

func TestWrite(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	err := Write(&b, []Check{
		{Mark: Pass, Name: "model", Detail: "m (default)"},
		{Mark: Fail, Name: "gateway", Detail: "refused\n\x1b[31mred\x1b[0m", Fix: "start it"},
		{Mark: Skip, Name: "streaming", Detail: "not checked"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "✓ model      m (default)\n✗ gateway    refused red — fix: start it\n- streaming  not checked\n1 check failed\n"
	if b.String() != want {
		t.Errorf("Write =\n%q\nwant\n%q", b.String(), want)
	}
}
