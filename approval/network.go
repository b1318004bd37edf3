package approval

import (
	"net/url"
	"strings"
)

// urlHost is the host a web_fetch call reaches, lower case without port or
// trailing dot, which its rules match against (web_fetch:docs.python.org,
// web_fetch:*.golang.org); "" for a URL without one, which no rule matches.
func urlHost(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
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
