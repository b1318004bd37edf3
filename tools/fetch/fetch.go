package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ternhq/tern/internal/sanitize"

	htmltomarkdown "github.com/JohannesKaufmann/html-to-markdown/v2"
	"github.com/JohannesKaufmann/html-to-markdown/v2/converter"
)

const (
	// Timeout bounds the whole request, redirects and body included.
	Timeout = 30 * time.Second
	// MaxRedirects is how many redirects a fetch follows.
	MaxRedirects = 5
	// maxDownload bounds the bytes read from the server, before conversion;
	// the tool caps what the model sees further.
	maxDownload = 8 << 20
)

// Options tune one fetch.
type Options struct {
	// AllowPrivate lets the fetch connect to loopback, private, link-local
	// and metadata addresses (config web_fetch_allow_private).
	AllowPrivate bool
	// blocked replaces blockedAddrPort in tests, which need a "private"
	// address that is not loopback.
	blocked func(netip.AddrPort) bool
}

// Page is a fetched document as text.
type Page struct {
	// URL is the address finally read, after redirects.
	URL string
	// Status is the HTTP status code, ContentType the media type without
	// parameters.
	Status      int
	ContentType string
	// Size is the number of body bytes read; Truncated says the body was
	// longer than the download limit and was cut.
	Size      int
	Truncated bool
	// Text is the body as text: Markdown for HTML (Markdown set), as sent
	// for other text types.
	Text     string
	Markdown bool
	// Redirect is where a redirect to another host leads, not followed:
	// the user approved the first URL's host, not this one. Text is then
	// empty.
	Redirect string
}

// ErrBinary is returned for a body that is not text.
var ErrBinary = errors.New("not a text document")

// ErrScheme is returned for a URL (or a redirect) that is not http or https.
var ErrScheme = errors.New("only http and https URLs can be fetched")

// CheckURL reports whether raw is a URL web_fetch may request: absolute,
// http or https, with a host.
func CheckURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("not a valid URL: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("%q: %w", u.Scheme, ErrScheme)
	}
	if u.Hostname() == "" {
		return nil, errors.New("the URL has no host")
	}
	return u, nil
}

// client builds the HTTP client for one fetch: no proxy (a proxy would make
// the connection check see the proxy's address, not the site's), the
// address check on every connection, and at most MaxRedirects redirects,
// each http or https and to the first URL's host: a redirect elsewhere is
// not followed, and *stopped set to where it leads.
func client(o Options, stopped *string) *http.Client {
	dialer := &net.Dialer{Timeout: Timeout, KeepAlive: -1}
	if !o.AllowPrivate {
		blocked := o.blocked
		if blocked == nil {
			blocked = blockedAddrPort
		}
		dialer.Control = dialControl(blocked)
	}
	tr := &http.Transport{
		Proxy:                  nil,
		DialContext:            dialer.DialContext,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    10 * time.Second,
		ResponseHeaderTimeout:  Timeout,
		DisableKeepAlives:      true,
		MaxResponseHeaderBytes: 1 << 20,
	}
	return &http.Client{
		Transport: tr,
		Timeout:   Timeout,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) > MaxRedirects {
				return fmt.Errorf("stopped after %d redirects", MaxRedirects)
			}
			if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
				return fmt.Errorf("redirect to %q: %w", req.URL.Scheme, ErrScheme)
			}
			if hostOf(req.URL) != hostOf(via[0].URL) {
				*stopped = req.URL.String()
				return http.ErrUseLastResponse
			}
			return nil
		},
	}
}

// Get fetches raw and returns its body as text. A body that is not text is
// refused with ErrBinary; a connection to a blocked address fails with an
// error wrapping ErrBlockedAddress.
func Get(ctx context.Context, raw string, o Options) (Page, error) {
	u, err := CheckURL(raw)
	if err != nil {
		return Page{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return Page{}, fmt.Errorf("request %s: %w", raw, err)
	}
	req.Header.Set("User-Agent", "tern-web_fetch/1")
	req.Header.Set("Accept", "text/html, text/markdown, text/plain, application/json, */*;q=0.5")
	var stopped string
	resp, err := client(o, &stopped).Do(req)
	if err != nil {
		return Page{}, unwrapURLError(err)
	}
	defer func() { _ = resp.Body.Close() }() // read below; a close error changes nothing
	if stopped != "" {
		return Page{URL: resp.Request.URL.String(), Status: resp.StatusCode, Redirect: stopped}, nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxDownload+1))
	if err != nil {
		return Page{}, fmt.Errorf("read %s: %w", resp.Request.URL, err)
	}
	p := Page{URL: resp.Request.URL.String(), Status: resp.StatusCode}
	if len(body) > maxDownload {
		body, p.Truncated = body[:maxDownload], true
	}
	p.Size = len(body)
	p.ContentType = mediaType(resp.Header.Get("Content-Type"), body)
	// Control sequences go before conversion too: the converter drops a
	// lone BEL, which would leave an escape sequence open to swallow the
	// rest of the page when the text is cleaned afterwards.
	text := sanitize.Clean(strings.ToValidUTF8(string(body), "\uFFFD"))
	switch {
	case isHTML(p.ContentType):
		md, err := htmltomarkdown.ConvertString(text,
			converter.WithDomain(p.URL), converter.WithContext(ctx))
		if err != nil {
			return p, fmt.Errorf("convert %s to Markdown: %w", p.URL, err)
		}
		p.Text, p.Markdown = md, true
	case isText(p.ContentType) && looksText(body):
		p.Text = text
	default:
		return p, fmt.Errorf("%s is %s: %w", p.URL, p.ContentType, ErrBinary)
	}
	return p, nil
}

// hostOf is the host a URL names, as approval rules see it: lower case,
// without port or trailing dot.
func hostOf(u *url.URL) string {
	return strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
}

// unwrapURLError drops net/url's "Get \"...\": " wrapping, which repeats the
// URL the caller already shows, keeping the cause.
func unwrapURLError(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		return fmt.Errorf("%s %s: %w", ue.Op, ue.URL, ue.Err)
	}
	return err
}

// mediaType is the response's media type, lower case without parameters;
// sniffed from the body when the server sends none.
func mediaType(header string, body []byte) string {
	if header == "" {
		header = http.DetectContentType(body)
	}
	mt, _, err := mime.ParseMediaType(header)
	if err != nil {
		return strings.ToLower(strings.TrimSpace(strings.Split(header, ";")[0]))
	}
	return mt
}

func isHTML(mt string) bool { return mt == "text/html" || mt == "application/xhtml+xml" }

// isText reports whether a media type is text worth showing as it is.
func isText(mt string) bool {
	switch {
	case strings.HasPrefix(mt, "text/"),
		strings.HasSuffix(mt, "+json"), strings.HasSuffix(mt, "+xml"):
		return true
	}
	switch mt {
	case "application/json", "application/xml", "application/javascript", "application/x-javascript",
		"application/ecmascript", "application/toml", "application/yaml", "application/x-yaml",
		"application/x-sh", "application/sql", "application/graphql", "application/ld+json":
		return true
	}
	return false
}

// looksText reports whether body reads as text: no NUL byte in its first
// 8 KiB and mostly valid UTF-8, as git and ripgrep judge.
func looksText(body []byte) bool {
	head := body[:min(len(body), 8<<10)]
	for _, c := range head {
		if c == 0 {
			return false
		}
	}
	bad := 0
	for len(head) > 0 {
		r, n := utf8.DecodeRune(head)
		if r == utf8.RuneError && n == 1 {
			bad++
		}
		head = head[n:]
	}
	return bad*10 <= len(body[:min(len(body), 8<<10)])
}
