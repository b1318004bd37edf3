package markdown

import "testing"

func TestExpandTabs(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, in, want string }{
		{"none", "plain", "plain"},
		{"leading", "\treturn", "    return"},
		{"nested", "\t\tx", "        x"},
		{"to the next stop", "ab\tc", "ab  c"},
		{"at a stop", "abcd\te", "abcd    e"},
		{"each line from column 0", "ab\tc\n\td", "ab  c\n    d"},
		{"wide runes count two", "日\tx", "日  x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := ExpandTabs(tt.in); got != tt.want {
				t.Errorf("ExpandTabs(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
