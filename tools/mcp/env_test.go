package mcp

import (
	"strings"
	"testing"
)

// TestChildEnvHidesKey: the key variables reach no server, by name or by
// expansion, in any letter case (Windows looks variables up without regard
// to case, so $llm_api_key there is the key).
func TestChildEnvHidesKey(t *testing.T) {
	t.Parallel()
	secret := "sk-tern-secret"
	env := map[string]string{"LLM_API_KEY": secret, "OPENAI_API_KEY": secret, "PATH": "/bin", "TOKEN": "tok"}
	foldGetenv := func(name string) string { return env[strings.ToUpper(name)] }
	for _, configured := range []map[string]string{
		{"A": "$LLM_API_KEY"},
		{"A": "${OPENAI_API_KEY}"},
		{"A": "$llm_api_key"},
		{"A": "prefix-${Openai_Api_Key}-suffix"},
		{"llm_api_key": "$llm_api_key"},
		{"LLM_API_KEY": "$TOKEN"},
	} {
		out := childEnv(configured, foldGetenv, false)
		joined := strings.Join(out, "\n")
		if strings.Contains(joined, secret) || strings.Contains(strings.ToUpper(joined), "LLM_API_KEY=") {
			t.Errorf("%v gave %q", configured, out)
		}
		if !strings.Contains(joined, "PATH=/bin") {
			t.Errorf("%v lost PATH: %q", configured, out)
		}
	}
	if got := expand("Bearer ${llm_api_key}$TOKEN", foldGetenv); got != "Bearer tok" {
		t.Errorf("header expansion = %q", got)
	}
}
