package tools

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCap(t *testing.T) {
	t.Parallel()
	lines := manyLines(1000) // "line 1\n" ... 8893 bytes
	tests := []struct {
		name   string
		s      string
		max    int
		hint   string
		want   string // exact result, if set
		has    []string
		prefix string // the result starts with this
		suffix string // and ends with this
	}{
		{name: "fits", s: "short", max: 10, want: "short"},
		{name: "exactly max", s: "12345", max: 5, want: "12345"},
		{name: "empty", s: "", max: 0, want: ""},
		{name: "zero max", s: "abc", max: 0, want: ""},
		{name: "below minimum truncates", s: "abcdefghijklmnopqrstuvwxyz", max: 10, want: "abcdefghij"},
		{name: "below minimum keeps characters whole", s: "ééééé", max: 5, want: "éé"},
		{
			name: "lines", s: lines, max: 1000, hint: "call read_file with offset",
			has:    []string{"lines (", "KiB) left out; call read_file with offset ...]\n"},
			prefix: "line 1\nline 2\n", suffix: "line 999\nline 1000\n",
		},
		{
			name: "one long line", s: strings.Repeat("x", 5000), max: 200, hint: "h",
			has: []string{"\n[... 1 line (", ") left out; h ...]\n"},
		},
		{
			name: "long hint dropped when it cannot fit", s: strings.Repeat("y\n", 500), max: 100, hint: strings.Repeat("hint ", 40),
			has: []string{"left out ...]"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := Cap(tt.s, tt.max, tt.hint)
			if len(got) > tt.max {
				t.Errorf("%d bytes, max %d", len(got), tt.max)
			}
			if tt.want != "" || tt.s == "" || tt.max == 0 {
				if got != tt.want {
					t.Errorf("got %q, want %q", got, tt.want)
				}
			}
			for _, h := range tt.has {
				if !strings.Contains(got, h) {
					t.Errorf("result lacks %q:\n%s", h, got)
				}
			}
			if !strings.HasPrefix(got, tt.prefix) || !strings.HasSuffix(got, tt.suffix) {
				t.Errorf("head or tail missing:\n%s", got)
			}
		})
	}
}

// TestCapCutsAtLines checks that head and tail are whole lines, the marker
// counts exactly the lines between them, and head is larger than tail.
func TestCapCutsAtLines(t *testing.T) {
	t.Parallel()
	s := manyLines(1000)
	got := Cap(s, 2000, "hint")
	head, rest, ok := strings.Cut(got, "[... ")
	if !ok {
		t.Fatalf("no marker:\n%s", got)
	}
	marker, tail, _ := strings.Cut(rest, " ...]\n")
	if !strings.HasSuffix(head, "\n") || !strings.HasPrefix(tail, "line ") {
		t.Errorf("not cut at line boundaries: head ends %q, tail starts %q", head[len(head)-10:], tail[:10])
	}
	omitted := s[len(head) : len(s)-len(tail)]
	if !strings.HasPrefix(s, head) || !strings.HasSuffix(s, tail) {
		t.Fatal("head or tail is not part of the input")
	}
	wantLines := strings.Count(omitted, "\n")
	if !strings.HasPrefix(marker, strconv.Itoa(wantLines)+" lines (") {
		t.Errorf("marker %q, want %d lines", marker, wantLines)
	}
	if len(head) <= len(tail) {
		t.Errorf("head %d bytes, tail %d: the head should get more", len(head), len(tail))
	}
}

// TestCapProperties checks, on random inputs, that Cap never exceeds max,
// keeps valid UTF-8 valid, keeps a prefix and a suffix of the input, and
// shows the marker whenever max leaves room for it.
func TestCapProperties(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	pieces := []string{"a", "bc", "\n", "é", "日本", "🙂", " ", "\t", "line\n", "\r\n"}
	for i := 0; i < 3000; i++ {
		var b strings.Builder
		n := rng.IntN(400)
		for j := 0; j < n; j++ {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		maxLen := rng.IntN(len(s) + 10)
		hint := []string{"", "use offset", strings.Repeat("h", rng.IntN(80))}[rng.IntN(3)]
		checkCap(t, s, maxLen, hint)
	}
}

func checkCap(t *testing.T, s string, maxLen int, hint string) {
	t.Helper()
	got := Cap(s, maxLen, hint)
	if len(got) > max(maxLen, 0) {
		t.Fatalf("Cap(%q, %d) = %d bytes", s, maxLen, len(got))
	}
	if len(s) <= maxLen {
		if got != s {
			t.Fatalf("Cap changed a string that fits: %q -> %q", s, got)
		}
		return
	}
	if utf8.ValidString(s) && utf8.ValidString(hint) && !utf8.ValidString(got) {
		t.Fatalf("Cap(%q, %d) = %q is not valid UTF-8", s, maxLen, got)
	}
	head, rest, marked := strings.Cut(got, "[... ")
	if !marked {
		if !strings.HasPrefix(s, got) {
			t.Fatalf("unmarked result %q is not a prefix of %q", got, s)
		}
		if maxLen >= capMinimum+len(hint)+40 {
			t.Fatalf("Cap(%q, %d) has no marker: %q", s, maxLen, got)
		}
		return
	}
	_, tail, _ := strings.Cut(rest, " ...]\n")
	head = strings.TrimSuffix(head, "\n")
	if !strings.HasPrefix(s, head) || !strings.HasSuffix(s, tail) {
		t.Fatalf("Cap(%q, %d) = %q: head or tail not from the input", s, maxLen, got)
	}
}

func FuzzCap(f *testing.F) {
	f.Add("hello\nworld\n", 8, "hint")
	f.Add(strings.Repeat("é", 100), 60, "")
	f.Add(manyLines(50), 100, "call read_file")
	f.Fuzz(func(t *testing.T, s string, maxLen int, hint string) {
		if maxLen > 1<<20 || maxLen < -1 {
			return
		}
		checkCap(t, s, maxLen, hint)
	})
}

func TestFormatSize(t *testing.T) {
	t.Parallel()
	for n, want := range map[int]string{0: "0 B", 830: "830 B", 1024: "1 KiB", 57000: "56 KiB", 3 << 20: "3.0 MiB"} {
		if got := formatSize(n); got != want {
			t.Errorf("formatSize(%d) = %q, want %q", n, got, want)
		}
	}
}
