package approval

import (
	"net/url"
	"strings"

	"golang.org/x/net/idna"
)

// urlHost is the host a web_fetch call reaches, lower case without port or
// trailing dot, which its rules match against (web_fetch:docs.python.org,
// web_fetch:*.golang.org); "" for a URL without one, which no rule matches.
// A host with non-ASCII characters is taken in the ASCII form net/http
// dials (IDNA lookup mapping: full-width letters and dots, U+3002 and
// upper case become ASCII, other labels punycode), so a deny rule cannot be
// sidestepped by writing a.evil．example for a.evil.example.
func urlHost(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	host := u.Hostname()
	if !isASCII(host) {
		if ascii, err := idna.Lookup.ToASCII(host); err == nil {
			host = ascii // net/http dials the host as written when this fails
		}
	}
	return strings.TrimSuffix(strings.ToLower(host), ".")
}

// networkScope is what "allow for this session" remembers for a fetch:
// fetches from the same host.
func networkScope(tool, host string) (Scope, []string) {
	if host == "" {
		return Scope{}, nil
	}
	key := tool + ":" + host
	return Scope{Key: key, Label: "fetches from " + host}, []string{key}
}

// isASCII reports whether s has only ASCII characters, which net/http
// dials as they are.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}
