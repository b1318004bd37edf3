package tools

import (
	"strings"
	"testing"
)

// TestRedactQuotedKeys: a header or key written as a quoted JSON, Python
// or YAML key ("Authorization": "Bearer ...") is redacted as the bare one,
// and so is a token used alone as a URL's user name.
func TestRedactQuotedKeys(t *testing.T) {
	t.Parallel()
	const secret = "Zq8mN3vB7xK2pL9wR4tY6uH1"
	const aws = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
	for _, in := range []string{
		`{"Authorization": "Bearer ` + secret + `"}`,
		`headers = {'Authorization': 'token ` + secret + `'}`,
		`"authorization":"` + secret + `"`,
		`{"http.extraheader": "AUTHORIZATION: basic ` + secret + `"}`,
		`"aws_secret_access_key": "` + aws + `"`,
		`'AWS_SECRET_ACCESS_KEY' = '` + aws + `'`,
		"url = https://" + secret + "@github.com/o/r.git",
		"remote.origin.url=https://0123456789abcdef0123" + secret + "@example.com/x",
	} {
		if out := Redact(in); strings.Contains(out, secret) || strings.Contains(out, aws) || !strings.Contains(out, "[REDACTED") {
			t.Errorf("Redact(%q) = %q", in, out)
		}
	}
}

// TestRedactStreamLongLineSplit: a line without an end is let through in
// pieces once it is long; the cut must not fall inside a credential or
// between it and its key, wherever the credential sits and however the
// output is chunked.
func TestRedactStreamLongLineSplit(t *testing.T) {
	t.Parallel()
	const token = "ghp_Zq8mN3vB7xK2pL9wR4tY6uH1abcdefghijkl"
	tails := []string{
		" " + token,
		" Authorization: Bearer Zq8mN3vB7xK2pL9wR4tY6uH1",
		" https://user:Zq8mN3vB7xK2pL9wR4tY6uH1@host/x",
		"/" + token,
	}
	for _, tail := range tails {
		for pad := redactHoldLine - 70; pad < redactHoldLine+10; pad += 3 {
			for _, step := range []int{61, 4096} {
				full := strings.Repeat("x", pad) + tail + strings.Repeat(" y", 3000) + "\n"
				var rs RedactStream
				var got strings.Builder
				for i := 0; i < len(full); i += step {
					got.WriteString(rs.Write(full[i:min(i+step, len(full))]))
				}
				got.WriteString(rs.Flush())
				if out := got.String(); strings.Contains(out, "Zq8mN3vB7xK2") || strings.Count(out, "[REDACTED") != 1 {
					t.Fatalf("pad %d step %d tail %q: credential let through split", pad, step, tail)
				}
			}
		}
	}
}
