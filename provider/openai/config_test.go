package openai

import (
	"net/http"
	"strings"
	"testing"
	"time"
)

func TestNewConfig(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		cfg  Config
		err  string
	}{
		{"minimal", Config{BaseURL: "http://localhost:11434/v1"}, ""},
		{"no base URL", Config{}, "LLM_BASE_URL"},
		{"not a URL", Config{BaseURL: "localhost:8080"}, "not an http(s) URL"},
		{"ftp", Config{BaseURL: "ftp://host/v1"}, "not an http(s) URL"},
		{"negative attempts", Config{BaseURL: "https://h/v1", MaxAttempts: -1}, "MaxAttempts"},
		{"negative backoff", Config{BaseURL: "https://h/v1", BaseBackoff: -time.Second}, "BaseBackoff"},
	} {
		_, err := New(tc.cfg)
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
			t.Errorf("%s: err = %v, want one mentioning %q", tc.name, err, tc.err)
		}
	}
}

func TestNewDefaults(t *testing.T) {
	t.Parallel()
	headers := map[string]string{"X-A": "1"}
	client := &http.Client{}
	p, err := New(Config{BaseURL: "https://h/v1", Headers: headers, HTTPClient: client})
	if err != nil {
		t.Fatal(err)
	}
	if p.cfg.MaxAttempts != DefaultMaxAttempts || p.cfg.BaseBackoff != DefaultBaseBackoff || p.cfg.HTTPClient != client {
		t.Errorf("config = %+v", p.cfg)
	}
	headers["X-A"] = "changed"
	if p.cfg.Headers["X-A"] != "1" {
		t.Errorf("the provider shares the caller's header map")
	}
}
