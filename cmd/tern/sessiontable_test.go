package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"text/tabwriter"
	"time"

	"github.com/ternhq/tern/session"
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

// TestSessionListMatchesRows checks that the table written straight from
// the sessions is byte for byte the one their rows make, with and without
// --all, for plain sessions and for the cells that need cleaning, tabs, a
// problem, wide text and the bytes that send it the rows' way.
func TestSessionListMatchesRows(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 12, 1, 21, 49, 0, 0, time.UTC)
	plain := session.Info{ID: "gen0000000000002710", Updated: at, Model: "gen/model", Title: "generated session 9999", Messages: 11, Workspace: "/w"}
	tests := []struct {
		name  string
		infos []session.Info
	}{
		{"none", nil},
		{"plain", []session.Info{plain, {ID: "abcd", Updated: at.Add(-time.Hour), Model: "a-much-longer/model-name", Title: "short", Messages: 3, Workspace: "/w"}}},
		{"wide, empty, a tab in a title", []session.Info{plain, {ID: "ééé", Updated: at, Title: "日本語\tのタイトル", Messages: 12345}, {Updated: at}}},
		{"a problem", []session.Info{plain, {ID: "bad", Updated: at, Problem: "the header line is incomplete"}}},
		{"escapes to clean", []session.Info{plain, {ID: "esc", Updated: at, Model: "m\x1b[31m", Title: "red \x1b[31mtitle\u202e", Workspace: "/w\x07"}}},
		{"models alternate", []session.Info{plain, {ID: "x", Updated: at, Model: "other", Title: "t"}, plain}},
		{"a tab in the id", []session.Info{plain, {ID: "a\tb", Updated: at, Title: "t"}}},
		{"form feed, vertical tab, newline, 0xff", []session.Info{plain, {ID: "i\vd", Updated: at, Model: "m\fx", Title: "t\xffu"}, {ID: "n", Model: "mo\ndel", Updated: at}}},
	}
	for _, tc := range tests {
		for _, all := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s all=%v", tc.name, all), func(t *testing.T) {
				t.Parallel()
				var want, got bytes.Buffer
				if err := writeSessionRows(&want, tc.infos, all); err != nil {
					t.Fatal(err)
				}
				if err := writeSessionList(&got, tc.infos, all); err != nil {
					t.Fatal(err)
				}
				if got.String() != want.String() {
					t.Errorf("table differs from the rows':\n got %q\nwant %q", got.String(), want.String())
				}
			})
		}
	}
}
