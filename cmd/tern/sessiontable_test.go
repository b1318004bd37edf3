package main

import (
	"bytes"
	"strings"
	"testing"
	"text/tabwriter"
)

// TestSessionTableMatchesTabwriter checks that the table of tern sessions
// is byte for byte what text/tabwriter wrote before it, for plain, wide,
// empty and hostile cells (those that tabwriter gives a meaning to).
func TestSessionTableMatchesTabwriter(t *testing.T) {
	t.Parallel()
	head := [sessionColumns + 1]string{"LAST USED", "MESSAGES", "MODEL", "ID", "TITLE"}
	tests := []struct {
		name string
		rows [][sessionColumns + 1]string
	}{
		{"heading only", nil},
		{"plain", [][sessionColumns + 1]string{
			{"2026-12-01 21:49", "11", "gen/model", "gen0000000000002710", "generated session 9999"},
			{"2026-12-01 21:48", "3", "a-much-longer/model-name-here", "abcd", "short"},
		}},
		{"wide and empty cells", [][sessionColumns + 1]string{
			{"2026-12-01 21:49", "0", "", "ééé", "日本語のタイトル"},
			{"2026-12-01 21:49", "12345", "m", "", ""},
		}},
		{"a tab in the id", [][sessionColumns + 1]string{
			{"2026-12-01 21:49", "1", "m", "a\tb", "t"},
			{"2026-12-01 21:49", "2", "model", "abcdef", "title"},
		}},
		{"form feed, vertical tab, newline, 0xff", [][sessionColumns + 1]string{
			{"2026-12-01 21:49", "1", "m\fx", "i\vd", "t\xffu"},
			{"2026-12-01 21:49", "2", "mo\ndel", "abcdef", "title"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rows := append([][sessionColumns + 1]string{head}, tc.rows...)
			var want bytes.Buffer
			tw := tabwriter.NewWriter(&want, 0, 0, 2, ' ', 0)
			for _, r := range rows {
				if _, err := tw.Write([]byte(strings.Join(r[:], "\t") + "\n")); err != nil {
					t.Fatal(err)
				}
			}
			if err := tw.Flush(); err != nil {
				t.Fatal(err)
			}
			var got bytes.Buffer
			if err := writeSessionTable(&got, rows); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("table differs from tabwriter's:\n got %q\nwant %q", got.String(), want.String())
			}
		})
	}
}
