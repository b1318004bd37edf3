package mcp

import (
	"net/http"
	"os/exec"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// terminateWait is how long a stdio server has to exit after its input
// closes before it is sent SIGTERM.
const terminateWait = 2 * time.Second

// transport builds the connection to the server: a process with the
// allow-listed environment for a command, a Streamable HTTP client with
// the configured headers for a URL. stderr keeps a stdio server's last
// error output, proc is its process (both nil for a URL).
func (s *server) transport() (sdk.Transport, *tail, *exec.Cmd, error) {
	if s.m.opts.transport != nil {
		tr, err := s.m.opts.transport(s.cfg)
		return tr, nil, nil, err
	}
	getenv := s.m.opts.Getenv
	if s.cfg.URL != "" {
		headers := make(map[string]string, len(s.cfg.Headers))
		for k, v := range s.cfg.Headers {
			if !s.cfg.Literal {
				v = expand(v, getenv)
			}
			headers[k] = v
		}
		client := &http.Client{Transport: &headerTransport{headers: headers, base: http.DefaultTransport}}
		return &sdk.StreamableClientTransport{Endpoint: s.cfg.URL, HTTPClient: client, MaxRetries: 2}, nil, nil, nil
	}
	cmd := exec.Command(s.cfg.Command, s.cfg.Args...)
	cmd.Env = childEnv(s.cfg.Env, getenv, s.cfg.Literal)
	cmd.Dir = s.m.opts.Dir
	stderr := &tail{}
	cmd.Stderr = stderr
	ownGroup(cmd)
	return &sdk.CommandTransport{Command: cmd, TerminateDuration: terminateWait}, stderr, cmd, nil
}

// headerTransport adds the configured headers to every request. The
// values never reach a log: the SDK's client is given no logger.
type headerTransport struct {
	headers map[string]string
	base    http.RoundTripper
}

// RoundTrip sends req with the headers set, on a copy (a RoundTripper must
// not change the request it is given).
func (h *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	r := req.Clone(req.Context())
	for k, v := range h.headers {
		r.Header.Set(k, v)
	}
	return h.base.RoundTrip(r)
}
