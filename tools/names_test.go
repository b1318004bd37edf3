package tools

import "testing"

func TestDisplayPath(t *testing.T) {
	t.Parallel()
	tests := map[string]string{
		"a/b.go":            "a/b.go",
		"with space.txt":    "with space.txt",
		"日本/ファイル.go":        "日本/ファイル.go",
		"émoji🙂.md":         "émoji🙂.md",
		"":                  "",
		"line\nbreak.txt":   `"line\nbreak.txt"`,
		"tab\there":         `"tab\there"`,
		"cr\r.txt":          `"cr\r.txt"`,
		"esc\x1b[31m.txt":   `"esc\x1b[31m.txt"`,
		"del\x7f":           `"del\x7f"`,
		"bad\xffutf8":       `"bad\xffutf8"`,
		"ls\u2028sep":       `"ls\u2028sep"`,
		"rtl\u202eoverride": `"rtl\u202eoverride"`,
		`"quoted".txt`:      `"\"quoted\".txt"`,
		`mid"quote`:         `mid"quote`,
	}
	for in, want := range tests {
		if got := displayPath(in); got != want {
			t.Errorf("displayPath(%q) = %s, want %s", in, got, want)
		}
	}
}
