package main

import (
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestUsageListsEveryFlag(t *testing.T) {
	t.Parallel()
	rootFS, _, _ := rootFlags()
	runFS, _, _ := runFlags()
	doctorFS, _, _ := doctorFlags()
	sessionsFS, _, _, _ := sessionsFlags()
	for _, tc := range []struct {
		fs    *flag.FlagSet
		usage string
	}{{rootFS, rootUsage}, {runFS, runUsage}, {doctorFS, doctorUsage}, {sessionsFS, sessionsUsage}} {
		tc.fs.VisitAll(func(f *flag.Flag) {
			if tc.fs == sessionsFS && !strings.Contains(sessionsUsage, "--"+f.Name) && strings.Contains(commonFlagsUsage, "--"+f.Name) {
				return // tern sessions accepts the common flags for the config, without listing them
			}
			if !strings.Contains(tc.usage, "--"+f.Name) {
				t.Errorf("the usage of %s does not mention --%s", tc.fs.Name(), f.Name)
			}
		})
	}
}

func TestParseInterspersed(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args    []string
		pos     []string
		json    bool
		model   string
		wantErr bool
	}{
		{args: []string{"fix it"}, pos: []string{"fix it"}},
		{args: []string{"--json", "fix it"}, pos: []string{"fix it"}, json: true},
		{args: []string{"fix it", "--json", "--model", "m"}, pos: []string{"fix it"}, json: true, model: "m"},
		{args: []string{"fix", "--model=m", "the", "bug"}, pos: []string{"fix", "the", "bug"}, model: "m"},
		{args: []string{"-"}, pos: []string{"-"}},
		{args: []string{"--", "--json", "is", "text"}, pos: []string{"--json", "is", "text"}},
		{args: []string{"a", "--", "-b"}, pos: []string{"a", "-b"}},
		{args: []string{"--nope"}, wantErr: true},
		{args: nil, pos: nil},
	}
	for _, tc := range tests {
		fs, common, rf := runFlags()
		pos, err := parseInterspersed(fs, tc.args)
		if (err != nil) != tc.wantErr {
			t.Errorf("%q: err = %v", tc.args, err)
			continue
		}
		if tc.wantErr {
			continue
		}
		if !reflect.DeepEqual(pos, tc.pos) || rf.json != tc.json || common.model != tc.model {
			t.Errorf("%q: pos %q json %v model %q; want %q %v %q", tc.args, pos, rf.json, common.model, tc.pos, tc.json, tc.model)
		}
	}
}

func TestMarkBareResume(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args, want []string
	}{
		{[]string{"--resume"}, []string{"--resume=" + bareResume}},
		{[]string{"-r", "--model", "m"}, []string{"-r=" + bareResume, "--model", "m"}},
		{[]string{"-r", "abc"}, []string{"-r", "abc"}},
		{[]string{"--resume=abc"}, []string{"--resume=abc"}},
		{[]string{"--", "-r"}, []string{"--", "-r"}},
		{nil, []string{}},
	}
	for _, tc := range tests {
		if got := markBareResume(tc.args); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("markBareResume(%q) = %q, want %q", tc.args, got, tc.want)
		}
	}
	fs, _, rf := rootFlags()
	if err := fs.Parse(markBareResume([]string{"-r"})); err != nil || rf.resume != bareResume {
		t.Errorf("parse -r: %v, resume %q", err, rf.resume)
	}
}

func TestFlagsOnlyWhenSet(t *testing.T) {
	t.Parallel()
	fs, common, _ := runFlags()
	if _, err := parseInterspersed(fs, []string{"--mock=false", "--max-steps", "3", "x"}); err != nil {
		t.Fatal(err)
	}
	f := common.config()
	if f.Mock == nil || *f.Mock || f.MaxSteps == nil || *f.MaxSteps != 3 {
		t.Errorf("set flags not passed on: %+v", f)
	}
	if f.BaseURL != nil || f.Model != nil || f.Approval != nil || f.MaxAttempts != nil || f.SkipApprovals != nil {
		t.Errorf("unset flags passed on as set: %+v", f)
	}
}

func TestPrompt(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		pos      []string
		stdin    string
		terminal bool
		want     string
		err      string
	}{
		{name: "argument", pos: []string{"fix it"}, terminal: true, want: "fix it"},
		{name: "words joined", pos: []string{"fix", "it"}, terminal: true, want: "fix it"},
		{name: "argument wins over a pipe", pos: []string{"fix it"}, stdin: "other", want: "fix it"},
		{name: "dash reads stdin", pos: []string{"-"}, stdin: "from stdin\n", terminal: true, want: "from stdin\n"},
		{name: "pipe without argument", stdin: "piped", want: "piped"},
		{name: "terminal without argument", terminal: true, err: "no prompt"},
		{name: "empty pipe", stdin: "  \n", err: "stdin was empty"},
		{name: "blank argument", pos: []string{" "}, terminal: true, err: "empty"},
	}
	for _, tc := range tests {
		c := &cli{stdin: strings.NewReader(tc.stdin), stdinIsTerminal: tc.terminal}
		got, err := c.prompt(tc.pos)
		switch {
		case tc.err != "":
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: err = %v, want %q", tc.name, err, tc.err)
			}
		case err != nil || got != tc.want:
			t.Errorf("%s: %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}

func TestInGitRepo(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	deep := filepath.Join(root, "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if inGitRepo(deep) {
		t.Skip("the temporary directory is inside a git repository")
	}
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if !inGitRepo(deep) || !inGitRepo(root) {
		t.Error("a .git directory above was not found")
	}
}

func TestSweepSessionDirs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	// A process that has exited: its id is free (and not reused this soon).
	gone := exec.Command("true")
	if err := gone.Run(); err != nil {
		t.Skip("no true command")
	}
	names := map[string]bool{
		sessionDirPrefix + strconv.Itoa(os.Getpid()) + "-1":      true,  // this process
		sessionDirPrefix + strconv.Itoa(gone.Process.Pid) + "-2": false, // gone
		sessionDirPrefix + "notapid-3":                           true,
		"other-dir":                                              true,
	}
	for n := range names {
		if err := os.Mkdir(filepath.Join(dir, n), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	sweepSessionDirs(context.Background(), dir)
	for n, keep := range names {
		_, err := os.Stat(filepath.Join(dir, n))
		if (err == nil) != keep {
			t.Errorf("%s: exists %v, want %v", n, err == nil, keep)
		}
	}
}

func TestSweepDue(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	now := time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	steps := []struct {
		name string
		home string
		at   time.Time
		want bool
	}{
		{"first start sweeps", home, now, true},
		{"a minute later does not", home, now.Add(time.Minute), false},
		{"an hour later sweeps", home, now.Add(sweepEvery), true},
		{"a clock set back sweeps", home, now, true},
		{"no home always sweeps", "", now, true},
		{"a home that is not there sweeps", filepath.Join(home, "missing"), now, true},
	}
	for _, s := range steps { // in order: each step sees the mark the one before left
		if got := sweepDue(s.home, s.at); got != s.want {
			t.Errorf("%s: sweepDue = %v, want %v", s.name, got, s.want)
		}
	}
}
