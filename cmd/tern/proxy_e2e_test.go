package main

import (
	"encoding/pem"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// proxyLog records the hosts a test proxy was asked for.
type proxyLog struct {
	mu    sync.Mutex
	hosts []string
}

func (l *proxyLog) add(host string) {
	l.mu.Lock()
	l.hosts = append(l.hosts, host)
	l.mu.Unlock()
}

func (l *proxyLog) all() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.hosts...)
}

// tunnelTo is a CONNECT proxy, as HTTPS_PROXY names one, that tunnels
// every request to addr whatever host it names.
func tunnelTo(t *testing.T, addr string) (*httptest.Server, *proxyLog) {
	t.Helper()
	log := &proxyLog{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodConnect {
			http.Error(w, "CONNECT only", http.StatusMethodNotAllowed)
			return
		}
		log.add(r.Host)
		up, err := net.Dial("tcp", addr)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		down, rw, err := w.(http.Hijacker).Hijack()
		if err != nil {
			_ = up.Close()
			return
		}
		_, _ = io.WriteString(down, "HTTP/1.1 200 Connection established\r\n\r\n")
		go func() {
			_, _ = rw.WriteTo(up)
			_ = up.(*net.TCPConn).CloseWrite()
		}()
		_, _ = io.Copy(down, up)
		_ = down.Close()
		_ = up.Close()
	}))
	t.Cleanup(srv.Close)
	return srv, log
}

// forwardTo is a plain HTTP proxy, as HTTP_PROXY names one, that forwards
// every request to target, flushing as the answer streams.
func forwardTo(t *testing.T, target string) (*httptest.Server, *proxyLog) {
	t.Helper()
	log := &proxyLog{}
	u, err := url.Parse(target)
	if err != nil {
		t.Fatal(err)
	}
	rp := &httputil.ReverseProxy{
		Rewrite:       func(r *httputil.ProxyRequest) { r.SetURL(u); r.Out.URL.Path = r.In.URL.Path },
		FlushInterval: -1,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		log.add(r.URL.Host)
		rp.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, log
}

// TestE2ERunThroughProxies runs tern run through the proxies the
// environment names, as a user behind one has them: a CONNECT proxy for
// an https gateway (HTTPS_PROXY) and a forwarding one for an http gateway
// (HTTP_PROXY); NO_PROXY sends the request past the proxy. tern dials its
// own connections to stream answers (provider/openai/dial.go), and they
// must still honour all three.
func TestE2ERunThroughProxies(t *testing.T) {
	t.Parallel()
	t.Run("HTTPS_PROXY to a TLS gateway", func(t *testing.T) {
		t.Parallel()
		g := newFakeGateway(t, scripted)
		g.srv.Close()
		g.srv = httptest.NewUnstartedServer(g.srv.Config.Handler)
		g.srv.StartTLS()
		t.Cleanup(g.srv.Close)
		certs := filepath.Join(t.TempDir(), "ca.pem")
		if err := os.WriteFile(certs, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: g.srv.Certificate().Raw}), 0o600); err != nil {
			t.Fatal(err)
		}
		px, log := tunnelTo(t, g.srv.Listener.Addr().String())
		env := online(g)
		// The test certificate names example.com; the proxy knows where
		// it is.
		env["LLM_BASE_URL"] = "https://example.com/v1"
		env["HTTPS_PROXY"] = px.URL
		env["SSL_CERT_FILE"] = certs
		ws := t.TempDir()
		r := tern(t, ws, env, "", "run", "--approval", "full-auto", "create hello.txt")
		if r.code != exitOK || r.stdout != "Created `hello.txt` with a greeting.\n" {
			t.Fatalf("exit %d, stdout %q, stderr:\n%s", r.code, r.stdout, r.stderr)
		}
		if hosts := log.all(); len(hosts) == 0 || hosts[0] != "example.com:443" {
			t.Errorf("the proxy tunnelled to %v, want example.com:443", hosts)
		}
		if n := g.requests.Load(); n != 2 {
			t.Errorf("the gateway saw %d requests, want 2", n)
		}
	})
	t.Run("HTTP_PROXY to a plain gateway", func(t *testing.T) {
		t.Parallel()
		g := newFakeGateway(t, scripted)
		px, log := forwardTo(t, g.srv.URL)
		env := online(g)
		env["LLM_BASE_URL"] = "http://gateway.invalid/v1"
		env["HTTP_PROXY"] = px.URL
		r := tern(t, t.TempDir(), env, "", "run", "--approval", "full-auto", "create hello.txt")
		if r.code != exitOK || r.stdout != "Created `hello.txt` with a greeting.\n" {
			t.Fatalf("exit %d, stdout %q, stderr:\n%s", r.code, r.stdout, r.stderr)
		}
		if hosts := log.all(); len(hosts) < 2 || hosts[0] != "gateway.invalid" {
			t.Errorf("the proxy forwarded to %v, want gateway.invalid for each request", hosts)
		}
	})
	t.Run("NO_PROXY names the gateway", func(t *testing.T) {
		t.Parallel()
		g := newFakeGateway(t, scripted)
		px, log := forwardTo(t, g.srv.URL)
		env := online(g)
		env["LLM_BASE_URL"] = "http://gateway.invalid/v1"
		env["HTTP_PROXY"] = px.URL
		env["NO_PROXY"] = "gateway.invalid"
		r := tern(t, t.TempDir(), env, "", "run", "--max-attempts", "1", "hello")
		if r.code == exitOK {
			t.Fatalf("a gateway that does not resolve answered: stdout %q", r.stdout)
		}
		if !strings.Contains(r.stderr, "gateway.invalid") {
			t.Errorf("stderr does not name the gateway:\n%s", r.stderr)
		}
		if hosts := log.all(); len(hosts) != 0 {
			t.Errorf("the proxy was asked for %v despite NO_PROXY", hosts)
		}
	})
}
