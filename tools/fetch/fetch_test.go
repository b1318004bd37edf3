package fetch

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"testing"
)

// allow lets the tests reach their httptest servers, which listen on loopback.
var allow = Options{AllowPrivate: true}

func serve(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

func TestGetConvertsByType(t *testing.T) {
	t.Parallel()
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/page":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			_, _ = fmt.Fprint(w, `<html><head><title>T</title><script>alert(1)</script></head>
<body><h1>Install</h1><p>Run <code>go get</code> <a href="/docs">docs</a>.</p><ul><li>one</li></ul></body></html>`)
		case "/data":
			w.Header().Set("Content-Type", "application/json")
			_, _ = fmt.Fprint(w, `{"a":1}`)
		case "/plain":
			_, _ = fmt.Fprint(w, "just text\n") // no type: sniffed
		case "/image":
			w.Header().Set("Content-Type", "image/png")
			_, _ = w.Write([]byte("\x89PNG\r\n\x1a\n\x00\x00"))
		case "/lying":
			w.Header().Set("Content-Type", "text/plain")
			_, _ = w.Write([]byte("ELF\x00\x01\x02\x00\x00"))
		}
	})
	ctx := context.Background()
	p, err := Get(ctx, srv.URL+"/page", allow)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Install", "`go get`", "[docs](" + srv.URL + "/docs)", "- one"} {
		if !strings.Contains(p.Text, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, p.Text)
		}
	}
	if strings.Contains(p.Text, "alert") || !p.Markdown || p.ContentType != "text/html" || p.Status != 200 {
		t.Errorf("page = %+v", p)
	}
	if p, err := Get(ctx, srv.URL+"/data", allow); err != nil || p.Text != `{"a":1}` || p.Markdown {
		t.Errorf("json = %+v, %v", p, err)
	}
	if p, err := Get(ctx, srv.URL+"/plain", allow); err != nil || p.Text != "just text\n" {
		t.Errorf("plain = %+v, %v", p, err)
	}
	for _, path := range []string{"/image", "/lying"} {
		if _, err := Get(ctx, srv.URL+path, allow); !errors.Is(err, ErrBinary) {
			t.Errorf("%s: err = %v, want ErrBinary", path, err)
		}
	}
}

func TestGetRedirects(t *testing.T) {
	t.Parallel()
	var srv *httptest.Server
	srv = serve(t, func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/hop/"))
		if n > 0 {
			http.Redirect(w, r, fmt.Sprintf("%s/hop/%d", srv.URL, n-1), http.StatusFound)
			return
		}
		_, _ = fmt.Fprint(w, "arrived")
	})
	ctx := context.Background()
	p, err := Get(ctx, srv.URL+"/hop/5", allow)
	if err != nil || p.Text != "arrived" || p.URL != srv.URL+"/hop/0" {
		t.Errorf("5 redirects: %+v, %v", p, err)
	}
	if _, err := Get(ctx, srv.URL+"/hop/6", allow); err == nil || !strings.Contains(err.Error(), "stopped after 5 redirects") {
		t.Errorf("6 redirects: err = %v", err)
	}
}

// TestGetStopsAtOtherHost: approval judges the host of the URL the model
// gave, so a redirect to another host is not followed (it would take a
// fetch past a deny rule, or an allow rule's open redirect anywhere); the
// page says where it leads instead. The port does not make another host.
func TestGetStopsAtOtherHost(t *testing.T) {
	t.Parallel()
	reached := make(chan string, 4)
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/" {
			reached <- r.Host + r.URL.Path
			_, _ = fmt.Fprint(w, "arrived")
			return
		}
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	})
	other := serve(t, func(w http.ResponseWriter, _ *http.Request) { _, _ = fmt.Fprint(w, "other port") })
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	for _, tc := range []struct{ to, redirect, text string }{
		{fmt.Sprintf("http://localhost:%d/secret?k=v", port), fmt.Sprintf("http://localhost:%d/secret?k=v", port), ""},
		{fmt.Sprintf("http://LOCALHOST.:%d/x", port), fmt.Sprintf("http://LOCALHOST.:%d/x", port), ""},
		{"/same", "", "arrived"},
		{srv.URL + "/same", "", "arrived"},
		{other.URL + "/", "", "other port"},
	} {
		p, err := Get(context.Background(), srv.URL+"/?to="+url.QueryEscape(tc.to), allow)
		if err != nil || p.Redirect != tc.redirect || p.Text != tc.text {
			t.Errorf("redirect to %s: %+v, %v", tc.to, p, err)
		}
	}
	close(reached)
	for r := range reached {
		if strings.HasPrefix(r, "localhost") || strings.HasPrefix(r, "LOCALHOST") {
			t.Errorf("the redirect to %s was followed", r)
		}
	}
}

func TestGetRefusesOtherSchemes(t *testing.T) {
	t.Parallel()
	srv := serve(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	})
	for _, to := range []string{"file:///etc/passwd", "ftp://example.com/x", "gopher://127.0.0.1:70/"} {
		if _, err := Get(context.Background(), srv.URL+"/?to="+url.QueryEscape(to), allow); !errors.Is(err, ErrScheme) {
			t.Errorf("redirect to %s: err = %v, want ErrScheme", to, err)
		}
		if _, err := Get(context.Background(), to, allow); !errors.Is(err, ErrScheme) {
			t.Errorf("%s: err = %v, want ErrScheme", to, err)
		}
	}
	for _, bad := range []string{"", "example.com/x", "http://", "http:///path", "javascript:alert(1)"} {
		if _, err := Get(context.Background(), bad, allow); err == nil {
			t.Errorf("%q was fetched", bad)
		}
	}
}

// TestGetRefusesLoopback is the one test without the allow-private switch:
// the httptest server is on loopback, and every way to write its address
// is refused at connect time.
func TestGetRefusesLoopback(t *testing.T) {
	t.Parallel()
	srv := serve(t, func(w http.ResponseWriter, _ *http.Request) { _, _ = fmt.Fprint(w, "local secret") })
	port := srv.Listener.Addr().(*net.TCPAddr).Port
	for _, u := range []string{
		srv.URL,
		fmt.Sprintf("http://localhost:%d/", port),
		fmt.Sprintf("http://[::ffff:127.0.0.1]:%d/", port),
		fmt.Sprintf("http://0.0.0.0:%d/", port),
		fmt.Sprintf("http://2130706433:%d/", port), // 127.0.0.1 as a decimal number
		fmt.Sprintf("http://0x7f.1:%d/", port),     // and in hex, short form
		fmt.Sprintf("http://127.1:%d/", port),
		fmt.Sprintf("http://localhost.:%d/", port),
	} {
		p, err := Get(context.Background(), u, Options{})
		if err == nil || strings.Contains(p.Text, "local secret") {
			t.Errorf("%s was fetched: %+v", u, p)
		}
	}
	if _, err := Get(context.Background(), srv.URL, Options{}); !errors.Is(err, ErrBlockedAddress) {
		t.Errorf("loopback: err = %v, want ErrBlockedAddress", err)
	}
}

// TestGetChecksEveryRedirect stands a second server in for a private
// address: the first is reachable, its redirect to the "private" one is
// refused when the connection is made, as a redirect to 169.254.169.254
// would be.
func TestGetChecksEveryRedirect(t *testing.T) {
	t.Parallel()
	private := serve(t, func(w http.ResponseWriter, _ *http.Request) { _, _ = fmt.Fprint(w, "metadata") })
	public := serve(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, private.URL+"/latest/meta-data/", http.StatusFound)
	})
	privatePort := uint16(private.Listener.Addr().(*net.TCPAddr).Port)
	o := Options{blocked: func(ap netip.AddrPort) bool { return ap.Port() == privatePort }}
	p, err := Get(context.Background(), public.URL, o)
	if !errors.Is(err, ErrBlockedAddress) || strings.Contains(p.Text, "metadata") {
		t.Errorf("redirect to a private address: %+v, %v", p, err)
	}
	if p, err := Get(context.Background(), private.URL, Options{AllowPrivate: true}); err != nil || p.Text != "metadata" {
		t.Errorf("with private addresses allowed: %+v, %v", p, err)
	}
}

func TestGetCapsDownload(t *testing.T) {
	t.Parallel()
	srv := serve(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte(strings.Repeat("a", maxDownload+100)))
	})
	p, err := Get(context.Background(), srv.URL, allow)
	if err != nil || !p.Truncated || p.Size != maxDownload || len(p.Text) != maxDownload {
		t.Errorf("size %d truncated %v err %v", p.Size, p.Truncated, err)
	}
}

// TestGetCapsDecompressed: a gzip body that inflates far past the limit is
// cut at the limit after decompression, not read whole.
func TestGetCapsDecompressed(t *testing.T) {
	t.Parallel()
	var bomb bytes.Buffer
	zw := gzip.NewWriter(&bomb)
	chunk := []byte(strings.Repeat("a", 1<<20))
	for range 4 * maxDownload >> 20 {
		_, _ = zw.Write(chunk)
	}
	_ = zw.Close()
	srv := serve(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Encoding", "gzip")
		_, _ = w.Write(bomb.Bytes())
	})
	p, err := Get(context.Background(), srv.URL, allow)
	if err != nil || !p.Truncated || p.Size != maxDownload || strings.Trim(p.Text, "a") != "" {
		t.Errorf("size %d truncated %v err %v", p.Size, p.Truncated, err)
	}
}

// TestClientUsesNoProxy: HTTP_PROXY and ALL_PROXY from the environment are
// ignored, or the address check would judge the proxy, not the site.
func TestClientUsesNoProxy(t *testing.T) {
	t.Parallel()
	var stopped string
	tr, ok := client(Options{}, &stopped).Transport.(*http.Transport)
	if !ok || tr.Proxy != nil {
		t.Errorf("transport %T with a proxy function", client(Options{}, &stopped).Transport)
	}
}
