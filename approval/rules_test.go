package approval

import (
	"strings"
	"testing"
)

func TestParsePolicy(t *testing.T) {
	t.Parallel()
	for _, p := range []Policy{PolicyAsk, PolicyAutoEdit, PolicyFullAuto, PolicyReadOnly} {
		got, err := ParsePolicy(p.String())
		if err != nil || got != p {
			t.Errorf("ParsePolicy(%q) = %v, %v", p.String(), got, err)
		}
	}
	for _, bad := range []string{"", "Ask", "auto", "yolo", "full_auto"} {
		_, err := ParsePolicy(bad)
		if err == nil || !strings.Contains(err.Error(), "ask, auto-edit, full-auto, read-only") {
			t.Errorf("ParsePolicy(%q): %v", bad, err)
		}
	}
}

func TestRulesValidate(t *testing.T) {
	t.Parallel()
	good := Rules{
		Allow: []string{"run_shell:go test *", "run_shell:git status", "edit_file:docs/**", "read_file", " write_file : **/*.md "},
		Deny:  []string{"run_shell:rm *", "edit_file:{a,b}/*.go"},
	}
	if err := good.Validate(); err != nil {
		t.Errorf("valid rules refused: %v", err)
	}
	for _, tc := range []struct {
		rules Rules
		want  string
	}{
		{Rules{Allow: []string{""}}, `allow rule "": a rule needs a tool name`},
		{Rules{Allow: []string{":ls"}}, "needs a tool name"},
		{Rules{Deny: []string{"run_shell:"}}, `deny rule "run_shell:": empty pattern`},
		{Rules{Deny: []string{"edit_file:docs/[a"}}, `deny rule "edit_file:docs/[a": path pattern`},
		{Rules{Allow: []string{"run shell:ls"}}, "may hold only letters"},
	} {
		err := tc.rules.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", tc.rules, err, tc.want)
		}
	}
}

func TestMatchCommand(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		pattern, cmd string
		want         bool
	}{
		{"go test *", "go test ./...", true},
		{"go test *", "go test", true},
		{"go test *", "go  test   -run X", true},
		{"go test *", "go testify", false},
		{"go test *", "go vet ./...", false},
		{"git status", "git status", true},
		{"git status", "git status --short", false},
		{"*", "anything at all", true},
		{"npm run *:dev", "npm run web:dev", true},
		{"npm run *:dev", "npm run web:prod", false},
		{"make * test", "make -j8 test", true},
		{"a*a", "a", false},
	} {
		if got := matchCommand(normalizeSpace(tc.pattern), tc.cmd); got != tc.want {
			t.Errorf("matchCommand(%q, %q) = %v", tc.pattern, tc.cmd, got)
		}
	}
}
