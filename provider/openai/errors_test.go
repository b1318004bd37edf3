package openai

import (
	"context"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/ternhq/tern/provider"
)

func TestClassifyHTTP(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name       string
		status     int
		header     map[string]string
		body       string
		kind       provider.ErrorKind
		retryAfter time.Duration
		says       []string
	}{
		{"401", 401, nil, `{"error":{"message":"Incorrect API key provided: sk-te***","type":"invalid_request_error","code":"invalid_api_key"}}`,
			provider.ErrAuth, 0, []string{"Incorrect API key", "LLM_API_KEY", "tern doctor"}},
		{"403 plain text", 403, map[string]string{"Content-Type": "text/plain"}, "Forbidden",
			provider.ErrAuth, 0, []string{"Forbidden", "LLM_API_KEY"}},
		{"429 seconds", 429, map[string]string{"Retry-After": "7"}, `{"error":{"message":"Rate limit reached","type":"requests","code":"rate_limit_exceeded"}}`,
			provider.ErrRateLimited, 7 * time.Second, []string{"Rate limit reached", "wait 7s"}},
		{"429 retry-after-ms", 429, map[string]string{"Retry-After-Ms": "1500"}, `{"error":{"message":"slow down"}}`,
			provider.ErrRateLimited, 1500 * time.Millisecond, []string{"slow down"}},
		{"429 quota", 429, nil, `{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}`,
			provider.ErrAuth, 0, []string{"no quota left", "billing"}},
		{"500 html", 500, map[string]string{"Content-Type": "text/html"}, "<html>\n<h1>Internal   Server Error</h1></html>",
			provider.ErrServer, 0, []string{"<h1>Internal Server Error</h1>", "try again"}},
		{"503 json", 503, map[string]string{"Retry-After": "2"}, `{"error":{"message":"The server is overloaded","type":"server_error"}}`,
			provider.ErrServer, 2 * time.Second, []string{"overloaded"}},
		{"529", 529, nil, `{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}`,
			provider.ErrServer, 0, []string{"Overloaded"}},
		{"400 context code", 400, nil, `{"error":{"message":"too long","type":"invalid_request_error","code":"context_length_exceeded"}}`,
			provider.ErrContextTooLong, 0, []string{"context window", "too long"}},
		{"400 context message", 400, nil, `{"error":{"message":"This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens.","code":null}}`,
			provider.ErrContextTooLong, 0, []string{"8192"}},
		{"400 llama.cpp", 400, nil, `{"error":{"code":400,"message":"the request exceeds the available context size, try increasing it","type":"exceed_context_size_error"}}`,
			provider.ErrContextTooLong, 0, []string{"context size"}},
		{"413", 413, map[string]string{"Content-Type": "text/plain"}, "Request Entity Too Large",
			provider.ErrContextTooLong, 0, []string{"Too Large"}},
		{"400 bad request", 400, nil, `{"error":{"message":"Invalid schema for function 'bash'","type":"invalid_request_error","param":"tools[0]"}}`,
			provider.ErrBadRequest, 0, []string{"rejected the request", "Invalid schema for function 'bash'"}},
		{"422 detail", 422, nil, `{"detail":[{"loc":["body","messages"],"msg":"field required"}]}`,
			provider.ErrBadRequest, 0, []string{"field required"}},
		{"400 error string", 400, nil, `{"error":"messages must not be empty"}`,
			provider.ErrBadRequest, 0, []string{"messages must not be empty"}},
		{"404", 404, nil, `{"error":{"message":"The model 'nope' does not exist","type":"invalid_request_error","code":"model_not_found"}}`,
			provider.ErrModelNotFound, 0, []string{`model "nope"`, "tern doctor", "LLM_MODEL"}},
		{"400 model code", 400, nil, `{"error":{"message":"nope is not a valid model ID","code":"model_not_found"}}`,
			provider.ErrModelNotFound, 0, []string{"not a valid model ID"}},
		{"408", 408, map[string]string{"Content-Type": "text/plain"}, "timeout", provider.ErrNetwork, 0, []string{"timed out"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			g := newGateway(t, failWith(tc.status, tc.body, tc.header))
			p, _ := newProvider(t, g, func(c *Config) { c.MaxAttempts = 1; c.Model = "nope" })
			_, err := p.Stream(context.Background(), userRequest("hi"))
			pe := providerError(t, err, tc.kind)
			if pe.Status != tc.status {
				t.Errorf("status = %d, want %d", pe.Status, tc.status)
			}
			if pe.RetryAfter != tc.retryAfter {
				t.Errorf("RetryAfter = %v, want %v", pe.RetryAfter, tc.retryAfter)
			}
			mustContain(t, pe.Message, tc.says...)
			if strings.Contains(pe.Message, "sk-test") {
				t.Errorf("message leaks the key: %s", pe.Message)
			}
		})
	}
}

func TestClassifyNetwork(t *testing.T) {
	t.Parallel()
	dead := deadURL(t)
	tlsSrv := httptest.NewUnstartedServer(http.NotFoundHandler())
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // the failed handshakes are the point
	tlsSrv.StartTLS()
	t.Cleanup(tlsSrv.Close)
	plain := httptest.NewServer(http.NotFoundHandler())
	t.Cleanup(plain.Close)
	hang := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Reading the body lets the server notice the client leaving.
		_, _ = io.Copy(io.Discard, r.Body)
		<-r.Context().Done()
	}))
	t.Cleanup(hang.Close)

	for _, tc := range []struct {
		name    string
		base    string
		timeout time.Duration
		says    string
	}{
		{"refused", dead, 0, "connection refused"},
		{"untrusted certificate", tlsSrv.URL + "/v1", 0, "TLS"},
		{"https to a plain server", strings.Replace(plain.URL, "http:", "https:", 1) + "/v1", 0, "use an http:// base URL"},
		{"timeout", hang.URL + "/v1", 50 * time.Millisecond, "did not answer in time"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, err := New(Config{BaseURL: tc.base, Model: "m", MaxAttempts: 1})
			if err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			if tc.timeout > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tc.timeout)
				defer cancel()
			}
			_, err = p.Stream(ctx, userRequest("hi"))
			pe := providerError(t, err, provider.ErrNetwork)
			mustContain(t, pe.Message, tc.says)
		})
	}
}

// deadURL returns a loopback URL where nothing listens.
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

// timeoutErr is a net.Error that timed out.
type timeoutErr struct{}

func (timeoutErr) Error() string   { return "i/o timeout" }
func (timeoutErr) Timeout() bool   { return true }
func (timeoutErr) Temporary() bool { return true }

func TestClassifyErrorValues(t *testing.T) {
	t.Parallel()
	p, err := New(Config{BaseURL: "https://gw.example/v1", Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	wrap := func(e error) error {
		return &url.Error{Op: "Post", URL: "https://gw.example/v1/chat/completions", Err: e}
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name string
		ctx  context.Context
		err  error
		kind provider.ErrorKind
		says string
	}{
		{"dns", context.Background(), wrap(&net.OpError{Op: "dial", Net: "tcp", Err: &net.DNSError{Err: "no such host", Name: "gw.example", IsNotFound: true}}),
			provider.ErrNetwork, "cannot resolve"},
		{"refused", context.Background(), wrap(&net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}),
			provider.ErrNetwork, "connection refused"},
		{"x509", context.Background(), wrap(x509.UnknownAuthorityError{}), provider.ErrNetwork, "TLS"},
		{"net timeout", context.Background(), wrap(&net.OpError{Op: "read", Err: timeoutErr{}}), provider.ErrNetwork, "did not answer in time"},
		{"deadline", context.Background(), wrap(context.DeadlineExceeded), provider.ErrNetwork, "did not answer in time"},
		{"reset", context.Background(), wrap(&net.OpError{Op: "read", Err: os.NewSyscallError("read", syscall.ECONNRESET)}), provider.ErrNetwork, "closed"},
		{"unexpected EOF", context.Background(), fmt.Errorf("read body: %w", io.ErrUnexpectedEOF), provider.ErrNetwork, "closed"},
		{"cancelled", context.Background(), wrap(context.Canceled), provider.ErrCancelled, "cancelled"},
		{"cancelled context", cancelled, errors.New("read on closed body"), provider.ErrCancelled, "cancelled"},
		{"other", context.Background(), errors.New("boom"), provider.ErrNetwork, "boom"},
		{"json", context.Background(), syntaxError(), provider.ErrProtocol, "not JSON"},
		{"api error in stream", context.Background(), fmt.Errorf("error, %w", &goopenai.APIError{Code: "rate_limit_exceeded", Message: "slow"}),
			provider.ErrRateLimited, "slow"},
		{"already classified", context.Background(), fmt.Errorf("x: %w", &provider.Error{Kind: provider.ErrProtocol, Message: "kept"}),
			provider.ErrProtocol, "kept"},
	} {
		pe := p.classify(tc.ctx, tc.err, nil, "m")
		if pe.Kind != tc.kind || !strings.Contains(pe.Message, tc.says) {
			t.Errorf("%s: got %s %q, want %s containing %q", tc.name, pe.Kind, pe.Message, tc.kind, tc.says)
		}
	}
}

func TestFailureKindInStream(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		f    failure
		want provider.ErrorKind
	}{
		{failure{code: "rate_limit_exceeded"}, provider.ErrRateLimited},
		{failure{typ: "rate_limit_error"}, provider.ErrRateLimited},
		{failure{code: "invalid_api_key"}, provider.ErrAuth},
		{failure{typ: "authentication_error"}, provider.ErrAuth},
		{failure{code: "insufficient_quota", status: 429}, provider.ErrAuth},
		{failure{typ: "not_found_error"}, provider.ErrModelNotFound},
		{failure{code: "model_not_found"}, provider.ErrModelNotFound},
		{failure{typ: "invalid_request_error", message: "bad tools"}, provider.ErrBadRequest},
		{failure{typ: "invalid_request_error", message: "prompt is too long: 210000 tokens > 200000 maximum"}, provider.ErrContextTooLong},
		{failure{status: 500, message: "maximum context length exceeded"}, provider.ErrContextTooLong},
		{failure{status: 502}, provider.ErrServer},
		{failure{message: "Provider disconnected"}, provider.ErrServer},
	} {
		if got := failureKind(tc.f); got != tc.want {
			t.Errorf("failureKind(%+v) = %s, want %s", tc.f, got, tc.want)
		}
	}
}

func TestRetryAfter(t *testing.T) {
	t.Parallel()
	now := time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		header map[string]string
		want   time.Duration
	}{
		{nil, 0},
		{map[string]string{"Retry-After": "30"}, 30 * time.Second},
		{map[string]string{"Retry-After": " 1.5 "}, 1500 * time.Millisecond},
		{map[string]string{"Retry-After": "0"}, 0},
		{map[string]string{"Retry-After": "-3"}, 0},
		{map[string]string{"Retry-After": "Sat, 01 Mar 2025 12:00:20 GMT"}, 20 * time.Second},
		{map[string]string{"Retry-After": "Sat, 01 Mar 2025 11:00:00 GMT"}, 0},
		{map[string]string{"Retry-After": "soon"}, 0},
		{map[string]string{"Retry-After": "1e308"}, 24 * time.Hour},
		{map[string]string{"Retry-After": "NaN"}, 0},
		{map[string]string{"Retry-After-Ms": "250", "Retry-After": "1"}, 250 * time.Millisecond},
		{map[string]string{"Retry-After-Ms": "junk", "Retry-After": "1"}, time.Second},
	} {
		h := http.Header{}
		for k, v := range tc.header {
			h.Set(k, v)
		}
		if got := retryAfter(h, now); got != tc.want {
			t.Errorf("retryAfter(%v) = %v, want %v", tc.header, got, tc.want)
		}
	}
}

func TestExcerpt(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("é", maxExcerpt)
	got := excerpt(long)
	if !strings.HasSuffix(got, "…") || len(got) > maxExcerpt+len("…") || !strings.HasPrefix(got, "éé") {
		t.Errorf("excerpt of %d bytes = %d bytes %q", len(long), len(got), got[:10])
	}
	if got := excerpt(" a \n\t b "); got != "a b" {
		t.Errorf("excerpt = %q", got)
	}
}

// syntaxError is what decoding an HTML page as JSON gives.
func syntaxError() error {
	var v any
	return fmt.Errorf("decode: %w", json.Unmarshal([]byte("<html>"), &v))
}
