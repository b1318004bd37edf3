package config

import (
	"strings"
	"testing"
)

func TestModelFactsSettings(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name       string
		file       string
		flags      Flags
		wantWindow int
		wantEffort string
		wantSource SourceKind
		wantErr    string
	}{
		{"defaults", "", Flags{}, DefaultContextWindow, "", SourceDefault, ""},
		{"from the file", "default_context_window = 200000\nreasoning_effort = \"High\"\n", Flags{}, 200_000, "high", SourceFile, ""},
		{"the flag wins", "reasoning_effort = \"low\"\n", Flags{Effort: ptr("medium")}, DefaultContextWindow, "medium", SourceFlag, ""},
		{"a window too small", "default_context_window = 100\n", Flags{}, 100, "", SourceDefault, "default context window"},
		{"an effort that is no level", "", Flags{Effort: ptr("very high!")}, DefaultContextWindow, "very high!", SourceFlag, "reasoning effort from flag --effort"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			home := writeHome(t, tc.file)
			c, err := Load(Inputs{Flags: tc.flags, Getenv: envFunc(map[string]string{EnvHome: home})})
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Fatalf("error %v, want %q", err, tc.wantErr)
			}
			if c.DefaultContextWindow.V != tc.wantWindow || c.ReasoningEffort.V != tc.wantEffort || c.ReasoningEffort.Source.Kind != tc.wantSource {
				t.Errorf("window %d, effort %q from %v; want %d, %q from %v", c.DefaultContextWindow.V, c.ReasoningEffort.V, c.ReasoningEffort.Source, tc.wantWindow, tc.wantEffort, tc.wantSource)
			}
		})
	}
}
