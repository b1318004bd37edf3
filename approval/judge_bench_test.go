package approval

import (
	"encoding/json"
	"testing"

	"github.com/ternhq/tern/tools"
)

// BenchmarkJudgeShell measures the approval check of one typical shell
// command under the ask policy with a few allow rules: reading the command,
// the always-ask checks, the protected-path writes and the rule match.
func BenchmarkJudgeShell(b *testing.B) {
	_, _, shell := fakeTools()
	ws, err := tools.NewWorkspace(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	a, err := newSession(Config{Workspace: ws,
		Rules: Rules{Allow: []string{"run_shell:go test *", "run_shell:go vet *", "run_shell:git status"}}})
	if err != nil {
		b.Fatal(err)
	}
	args, _ := json.Marshal(map[string]string{"command": `cd sub && CGO_ENABLED=0 go test -run 'TestA|TestB' ./... 2>&1 | tail -20 && git status`})
	b.ReportAllocs()
	for b.Loop() {
		a.judge(shell, "run_shell", args, PolicyAsk)
	}
}
