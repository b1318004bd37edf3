package mock

import "testing"

func TestChooseScene(t *testing.T) {
	t.Parallel()
	tests := []struct {
		msg, scene string
		// path, word and command are the arguments the scene would use; ""
		// means not checked.
		path, word, command string
	}{
		{msg: "", scene: "default"},
		{msg: "hello there", scene: "default"},
		{msg: "how do I run tern with ollama?", scene: "default"},
		{msg: "read go.mod", scene: "read", path: "go.mod"},
		{msg: "Please summarise provider/delta.go.", scene: "read", path: "provider/delta.go"},
		{msg: "can you explain what cmd/tern/main.go does", scene: "read", path: "cmd/tern/main.go"},
		{msg: "read Makefile", scene: "read", path: "Makefile"},
		{msg: "search Provider", scene: "search", word: "Provider"},
		{msg: "find the word Accumulator", scene: "search", word: "Accumulator"},
		{msg: `grep "tool call" please`, scene: "search", word: "tool call"},
		{msg: "edit README.md", scene: "edit", path: "README.md"},
		{msg: "add a comment to `main.py`", scene: "edit", path: "main.py"},
		{msg: "ok, modify docs/guide.md", scene: "edit", path: "docs/guide.md"},
		{msg: "run go test ./...", scene: "run", command: "go test ./..."},
		{msg: "please run `ls -la`", scene: "run", command: "ls -la"},
		{msg: "$ echo hi", scene: "run", command: "echo hi"},
		{msg: "make a broken tool call", scene: "fail"},
		{msg: "FAIL", scene: "fail"},
		{msg: "think about the design", scene: "think"},
		{msg: "what is the reason for this?", scene: "think"},
		{msg: "give me a long answer", scene: "long"},
		{msg: "stream something", scene: "long"},
		// The earliest keyword wins; leading verbs only count first.
		{msg: "read fail.go", scene: "read", path: "fail.go"},
		{msg: "think, then read main.go", scene: "think"},
		{msg: "explain main.go with reasoning", scene: "read", path: "main.go"},
		{msg: "why does search fail", scene: "fail"},
	}
	for _, tt := range tests {
		t.Run(tt.msg, func(t *testing.T) {
			t.Parallel()
			sc, m := chooseScene(tt.msg)
			if sc.name != tt.scene {
				t.Fatalf("scene = %q, want %q", sc.name, tt.scene)
			}
			if tt.path != "" && m.path() != tt.path {
				t.Errorf("path = %q, want %q", m.path(), tt.path)
			}
			if tt.word != "" && m.word() != tt.word {
				t.Errorf("word = %q, want %q", m.word(), tt.word)
			}
			if tt.command != "" && m.command() != tt.command {
				t.Errorf("command = %q, want %q", m.command(), tt.command)
			}
		})
	}
}

func TestEverySceneIsReachable(t *testing.T) {
	t.Parallel()
	for _, sc := range scenes() {
		for _, kw := range sc.keywords {
			got, m := chooseScene("please " + kw + " x.go")
			if got.name != sc.name || m.path() != "x.go" {
				t.Errorf("keyword %q chose %q with path %q, want %q with x.go", kw, got.name, m.path(), sc.name)
			}
		}
	}
}
