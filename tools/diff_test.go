package tools

import "testing"

func TestUnifiedDiff(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, before, after, want string
		added, removed            int
	}{
		{name: "equal", before: "a\nb\n", after: "a\nb\n", want: ""},
		{
			name:   "one line changed",
			before: "1\n2\n3\n4\n5\n6\n7\n8\n9\n", after: "1\n2\n3\n4\nfive\n6\n7\n8\n9\n",
			want:  "--- a/f.txt\n+++ b/f.txt\n@@ -2,7 +2,7 @@\n 2\n 3\n 4\n-5\n+five\n 6\n 7\n 8\n",
			added: 1, removed: 1,
		},
		{
			name:   "new file",
			before: "", after: "x\ny\n",
			want:  "--- a/f.txt\n+++ b/f.txt\n@@ -0,0 +1,2 @@\n+x\n+y\n",
			added: 2,
		},
		{
			name:   "missing final newline",
			before: "a\n", after: "a\nb",
			want:  "--- a/f.txt\n+++ b/f.txt\n@@ -1 +1,2 @@\n a\n+b\n\\ No newline at end of file\n",
			added: 1,
		},
		{
			name:   "two hunks",
			before: "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n", after: "one\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\ntwelve\n",
			want: "--- a/f.txt\n+++ b/f.txt\n@@ -1,4 +1,4 @@\n-1\n+one\n 2\n 3\n 4\n" +
				"@@ -9,4 +9,4 @@\n 9\n 10\n 11\n-12\n+twelve\n",
			added: 2, removed: 2,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := UnifiedDiff("f.txt", tc.before, tc.after); got != tc.want {
				t.Errorf("UnifiedDiff =\n%s\nwant\n%s", got, tc.want)
			}
			if a, r := lineDelta(tc.before, tc.after); a != tc.added || r != tc.removed {
				t.Errorf("lineDelta = +%d -%d, want +%d -%d", a, r, tc.added, tc.removed)
			}
		})
	}
}
