package main

import (
	"fmt"
	"os"
	"strings"
	"testing"
)

// benchTable appends one measure to the Markdown table in the file that
// TERN_BENCH_TABLE names, so that scripts/speed can print the figures of
// every benchmark as one table; without the variable it does nothing. A
// measure without a target is a figure for context, not a check.
func benchTable(t testing.TB, measure, got, target string, ok bool) {
	t.Helper()
	path := os.Getenv("TERN_BENCH_TABLE")
	if path == "" {
		return
	}
	met := ""
	if target != "" {
		met = "met"
		if !ok {
			met = "**missed**"
		}
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatalf("open the benchmark table: %v", err)
	}
	cell := func(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
	_, err = fmt.Fprintf(f, "| %s | %s | %s | %s |\n", cell(measure), cell(got), cell(target), met)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatalf("write the benchmark table: %v", err)
	}
}
