package tools

import (
	"strings"
	"testing"
)

// Credentials in the tests are built from pieces so that the source file
// itself holds none a scanner would flag.
var (
	ghToken    = "ghs_" + strings.Repeat("aB3dE5", 6)
	ghPAT      = "github_pat_11ABCDEFG0" + strings.Repeat("xY9_", 15)
	glToken    = "glpat-" + "Ab3De5Gh7Jk9Mn1Pq3St"
	slackBot   = "xoxb-" + "1234567890-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx"
	slackApp   = "xapp-" + "1-A0123456789-1234567890123-abcdef0123456789"
	awsKeyID   = "AKIA" + "IOSFODNN7EXAMPL3"
	awsSession = "ASIA" + "Y34FZKBOKMUTVV7A"
	awsSecret  = "wJalrXUtnFEMI/K7MDENG/" + "bPxRfiCYEXAMPLEKEY"
	openaiKey  = "sk-" + "proj-Ab3De5Gh7Jk9Mn1Pq3St5Vw7Yz9"
	openaiOld  = "sk-" + "T3BlbkFJ" + "aB3dE5fG7hJ9kL1mN3pQ5rS7"
)

const pemBody = "MIIEpAIBAAKCAQEA7V3bV0mS1c4b3Zy2lZxR6vX8yB1lZ9fA\nQ2lZ9fA7V3bV0mS1c4b3Zy2lZxR6vX8yB1lZ9fAQ2lZ9fA7V3\nbV0mS1c4b3Zy2lZxR6vX8yB1==\n"

func TestRedact(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in, want string
	}{
		{"url password", "origin\thttps://x-access-token:" + ghToken + "@github.com/o/r.git (fetch)",
			"origin\thttps://x-access-token:[REDACTED password]@github.com/o/r.git (fetch)"},
		{"url password in config", "\turl = https://alice:hunter2@example.com/repo\n",
			"\turl = https://alice:[REDACTED password]@example.com/repo\n"},
		{"database url", `DSN="postgres://app:s3cr3t@db:5432/prod"`, `DSN="postgres://app:[REDACTED password]@db:5432/prod"`},
		{"extraheader", "[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: basic eC1hY2Nlc3MtdG9rZW46Z2hz\n",
			"[http \"https://github.com/\"]\n\textraheader = AUTHORIZATION: [REDACTED header value]\n"},
		{"extraheader short", "\textraheader = AUTHORIZATION: basic abc", "\textraheader = AUTHORIZATION: [REDACTED header value]"},
		{"extraheader custom", `http.https://x.io/.extraHeader="X-Api-Key: k3y"`, `http.https://x.io/.extraHeader="X-Api-Key: [REDACTED header value]"`},
		{"authorization basic", "Authorization: Basic dXNlcjpwYXNz", "Authorization: Basic [REDACTED credential]"},
		{"authorization bearer in curl", `curl -H "authorization: Bearer abc.def.ghi" x`, `curl -H "authorization: Bearer [REDACTED credential]" x`},
		{"authorization token", "AUTHORIZATION: token abc", "AUTHORIZATION: token [REDACTED credential]"},
		{"authorization in json", `{"headers": {"Authorization": "Bearer eyJhbGciOi.x.y", "Accept": "*/*"}}`, `{"headers": {"Authorization": "Bearer [REDACTED credential]", "Accept": "*/*"}}`},
		{"authorization in python", `headers = {'authorization': 'token abc123'}`, `headers = {'authorization': 'token [REDACTED credential]'}`},
		{"authorization bare", "Authorization: dXNlcjpwYXNzd29yZDEyMw==", "Authorization: [REDACTED credential]"},
		{"github token", "GH_TOKEN=" + ghToken, "GH_TOKEN=[REDACTED github token]"},
		{"github pat", "token: " + ghPAT + "\n", "token: [REDACTED github token]\n"},
		{"gitlab", "export GITLAB_TOKEN=" + glToken, "export GITLAB_TOKEN=[REDACTED gitlab token]"},
		{"slack bot", "SLACK=" + slackBot, "SLACK=[REDACTED slack token]"},
		{"slack app", slackApp, "[REDACTED slack token]"},
		{"aws key id", "aws_access_key_id = " + awsKeyID, "aws_access_key_id = [REDACTED aws access key id]"},
		{"aws session key id", `"AccessKeyId": "` + awsSession + `"`, `"AccessKeyId": "[REDACTED aws access key id]"`},
		{"aws secret", "aws_secret_access_key = " + awsSecret, "aws_secret_access_key = [REDACTED aws secret key]"},
		{"openai project key", "OPENAI_API_KEY=" + openaiKey, "OPENAI_API_KEY=[REDACTED api key]"},
		{"openai key", "key: " + openaiOld, "key: [REDACTED api key]"},
		{"pem block", "before\n-----BEGIN RSA PRIVATE KEY-----\n" + pemBody + "-----END RSA PRIVATE KEY-----\nafter",
			"before\n-----BEGIN RSA PRIVATE KEY-----\n[REDACTED private key]\n\n\n-----END RSA PRIVATE KEY-----\nafter"},
		{"pem numbered", "     1\t-----BEGIN OPENSSH PRIVATE KEY-----\n     2\tb3BlbnNzaC1rZXktdjEAAAAABG5vbmU\n     3\t-----END OPENSSH PRIVATE KEY-----\n",
			"     1\t-----BEGIN OPENSSH PRIVATE KEY-----\n[REDACTED private key]\n     3\t-----END OPENSSH PRIVATE KEY-----\n"},
		{"pem in json", `"private_key": "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQ\n-----END PRIVATE KEY-----\n",`,
			`"private_key": "-----BEGIN PRIVATE KEY-----[REDACTED private key]-----END PRIVATE KEY-----\n",`},
		{"pem cut short", "-----BEGIN EC PRIVATE KEY-----\n" + pemBody + "… (300 bytes cut)\nnext", "-----BEGIN EC PRIVATE KEY-----\n[REDACTED private key]\n\n\n… (300 bytes cut)\nnext"},
		{"two in a line", "a=" + ghToken + " b=" + glToken, "a=[REDACTED github token] b=[REDACTED gitlab token]"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Redact(tt.in)
			if got != tt.want {
				t.Errorf("Redact(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if n, m := strings.Count(got, "\n"), strings.Count(tt.in, "\n"); n != m {
				t.Errorf("line count %d, was %d", n, m)
			}
			if again := Redact(got); again != got {
				t.Errorf("redacting twice changes it: %q", again)
			}
		})
	}
}

// TestRedactLeavesOrdinaryText checks text that only resembles a
// credential comes through unchanged.
func TestRedactLeavesOrdinaryText(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		"commit 3f2a9c1e5b7d4a6f8e0c2b4d6f8a0c2e4b6d8f0a",
		"sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",
		"task-sk-list-of-things-to-do-later-today",
		"run sk-learn-preprocessing-pipeline-step",
		"see https://github.com/o/r and git@github.com:o/r.git",
		"ssh://git@host:22/repo.git",
		"http://localhost:8080/a:b@c",
		"mailto:someone@example.com",
		"The Authorization: header carries the credential.",
		"authorization = required",
		"ghp_short and gho_ and github_pat_ are prefixes",
		"glpat-short",
		"xoxb-not-a-real-token-here",
		"AKIA is the prefix of AKIAIOSFODNN7EXAMPLE1234",
		"-----BEGIN PUBLIC KEY-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END PUBLIC KEY-----\n",
		"-----BEGIN CERTIFICATE-----\nMIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEA\n-----END CERTIFICATE-----\n",
		"",
	} {
		if got := Redact(in); got != in {
			t.Errorf("Redact(%q) = %q, want it unchanged", in, got)
		}
	}
}

// redactBenchInput is a full-size tool result (DefaultOutputCap) of
// ordinary output with some near misses and one of each credential.
func redactBenchInput() string {
	var b strings.Builder
	lines := []string{
		"ok  \tgithub.com/ternhq/tern/tools\t0.339s",
		"see https://github.com/o/r/pull/12 for the authorization change",
		"commit 3f2a9c1e5b7d4a6f8e0c2b4d6f8a0c2e4b6d8f0a task-sk-list",
		"func (w *Workspace) IsSecret(rel string) bool { return false }",
	}
	for i := 0; b.Len() < DefaultOutputCap-512; i++ {
		b.WriteString(lines[i%len(lines)])
		b.WriteByte('\n')
	}
	b.WriteString("url = https://x-access-token:" + ghToken + "@github.com/o/r\n")
	b.WriteString("extraheader = AUTHORIZATION: basic abc\n" + awsKeyID + " " + openaiKey + "\n")
	return b.String()
}

func BenchmarkRedact(b *testing.B) {
	in := redactBenchInput()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		Redact(in)
	}
}

// TestRedactStream checks live output cut into pieces of any size is
// redacted as the whole would be: a credential or key block split between
// pieces is still caught.
func TestRedactStream(t *testing.T) {
	t.Parallel()
	whole := "$ git remote -v\norigin\thttps://x-access-token:" + ghToken + "@github.com/o/r (fetch)\n" +
		"\textraheader = AUTHORIZATION: basic eC1hY2Nlc3M6Z2hz\n" +
		"-----BEGIN OPENSSH PRIVATE KEY-----\n" + pemBody + "-----END OPENSSH PRIVATE KEY-----\n" +
		"token " + glToken + " and " + slackBot + "\n10%\r50%\r100% " + openaiKey + "\r\nno newline at the end " + awsKeyID
	want := Redact(whole)
	for _, size := range []int{1, 2, 3, 7, 16, 64, len(whole)} {
		var r RedactStream
		var got strings.Builder
		for i := 0; i < len(whole); i += size {
			piece := r.Write(whole[i:min(i+size, len(whole))])
			for _, secret := range []string{"x-access-token:g", "eC1h", "MIIE", "Ab3De5", "1234567890-", "IOSF", "proj-"} {
				if strings.Contains(piece, secret) {
					t.Errorf("pieces of %d: %q let through %q", size, piece, secret)
				}
			}
			got.WriteString(piece)
		}
		got.WriteString(r.Flush())
		if got.String() != want {
			t.Errorf("pieces of %d:\n got %q\nwant %q", size, got.String(), want)
		}
	}
}

// BenchmarkRedactPlain is the common case: a full result with nothing a
// rule looks for.
func BenchmarkRedactPlain(b *testing.B) {
	line := "ok  \tgithub.com/ternhq/tern/tools\t0.339s coverage: 81.2% of statements\n"
	in := strings.Repeat(line, DefaultOutputCap/len(line))
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		Redact(in)
	}
}
