package highlight

import (
	"os"
	"strings"
	"testing"
)

// benchInput repeats the file at path up to about 60 KB.
func benchInput(b *testing.B, path string) string {
	b.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatalf("reading the sample: %v", err)
	}
	return strings.Repeat(string(data), 60_000/len(data)+1)[:60_000]
}

// BenchmarkTokens tokenizes 60 KB of Go (this package's scanner) and of
// TypeScript.
func BenchmarkTokens(b *testing.B) {
	for _, bc := range []struct{ lang, path string }{
		{"go", "scanner.go"},
		{"typescript", "testdata/sample.ts"},
	} {
		code := benchInput(b, bc.path)
		b.Run(bc.lang, func(b *testing.B) {
			b.SetBytes(int64(len(code)))
			b.ReportAllocs()
			for b.Loop() {
				Tokens(bc.lang, code)
			}
		})
	}
}
