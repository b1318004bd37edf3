package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/ternhq/tern/cmd/tern/headless"
	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/session"
	"github.com/ternhq/tern/tools"
)

// sessions is `tern sessions [--json] [--all]` and
// `tern sessions export ID [PATH]`.
func (c *cli) sessions(ctx context.Context, args []string) int {
	if len(args) > 0 && args[0] == "export" {
		return c.exportSession(args[1:])
	}
	fs, common, jsonOut, all := sessionsFlags()
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return c.flagError("tern sessions", err, sessionsUsage)
	}
	if len(pos) > 0 {
		c.printf(c.stderr, "tern sessions: unknown argument %q\nRun 'tern sessions --help' for usage.\n", pos[0])
		return exitUsage
	}
	return c.listSessions(ctx, common, c.stdout, *jsonOut, *all)
}

// sessionsFlags declares the flags of `tern sessions`.
func sessionsFlags() (fs *flag.FlagSet, common *commonFlags, jsonOut, all *bool) {
	fs, common = newFlagSet("tern sessions")
	jsonOut = fs.Bool("json", false, "print a JSON array")
	all = fs.Bool("all", false, "list the sessions of every workspace")
	return fs, common, jsonOut, all
}

// sessionJSON is one session in `tern sessions --json`.
type sessionJSON struct {
	ID        string    `json:"id"`
	Title     string    `json:"title"`
	Messages  int       `json:"messages"`
	Model     string    `json:"model"`
	Created   time.Time `json:"created"`
	Updated   time.Time `json:"updated"`
	Workspace string    `json:"workspace"`
	Parent    string    `json:"parent,omitempty"`
	Path      string    `json:"path"`
	Problem   string    `json:"problem,omitempty"`
}

// listSessions writes the sessions of this workspace (or all) to w, the
// most recently used first.
func (c *cli) listSessions(_ context.Context, common *commonFlags, w io.Writer, jsonOut, all bool) int {
	cfg, err := c.loadConfig(common)
	if err != nil {
		c.printf(c.stderr, "tern sessions: %v\n", err)
		return exitUsage
	}
	if !jsonOut {
		// What the table allocates is live until the command ends: a
		// collection would only scan it (one cost 10 ms of CPU and 160 page
		// faults over 10,000 sessions). The JSON is built with garbage: the
		// collector stays on there (off, 2,300 more page faults).
		defer debug.SetGCPercent(debug.SetGCPercent(-1))
	}
	code, err := listMapped(cfg.Home.V, func(infos []session.Info) int {
		return c.printSessions(cfg.Home.V, infos, w, jsonOut, all)
	})
	if err != nil {
		c.printf(c.stderr, "tern sessions: %v\n", err)
		return exitFailed
	}
	return code
}

// listMapped lists the sessions of home with session.ListMapped and hands
// them to use in this goroutine, where a fault reading the mapped index
// (cut in place while mapped) is an error, not a crash.
func listMapped(home string, use func([]session.Info) int) (code int, err error) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if r := recover(); r != nil {
			if _, fault := r.(interface{ Addr() uintptr }); !fault {
				panic(r)
			}
			code, err = exitFailed, fmt.Errorf("the session index changed while it was read (%v); run the command again", r)
		}
	}()
	infos, err := session.ListMapped(home)
	if err != nil {
		return exitFailed, err
	}
	return use(infos), nil
}

// printSessions writes the sessions of this workspace (or all) to w.
func (c *cli) printSessions(home string, infos []session.Info, w io.Writer, jsonOut, all bool) int {
	if !all {
		ws, err := tools.NewWorkspace(c.cwd)
		if err != nil {
			c.printf(c.stderr, "tern sessions: %v\n", err)
			return exitFailed
		}
		kept := infos[:0]
		for _, in := range infos {
			if filepath.Clean(in.Workspace) == ws.Root || in.Problem != "" && in.Workspace == "" {
				kept = append(kept, in)
			}
		}
		infos = kept
	}
	if jsonOut {
		out := make([]sessionJSON, 0, len(infos))
		for _, in := range infos {
			out = append(out, sessionJSON{
				ID: in.ID, Title: in.Title, Messages: in.Messages, Model: in.Model,
				Created: in.Created, Updated: in.Updated, Workspace: in.Workspace,
				Parent: in.Parent, Path: in.Path, Problem: in.Problem,
			})
		}
		var buf bytes.Buffer
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		err := enc.Encode(out)
		if err == nil {
			// Titles come from prompts: no raw C1 or bidi control in the JSON.
			_, err = w.Write(headless.EscapeInvisible(buf.Bytes()))
		}
		if err != nil {
			c.printf(c.stderr, "tern sessions: write the list: %v\n", err)
			return exitFailed
		}
		return exitOK
	}
	if len(infos) == 0 {
		where := "this workspace"
		if all {
			where = session.Dir(home)
		}
		c.printf(w, "No sessions in %s yet.\n", where)
		return exitOK
	}
	if err := writeSessionList(w, infos, all); err != nil {
		c.printf(c.stderr, "tern sessions: %v\n", err)
		return exitFailed
	}
	return exitOK
}

// exportSession is `tern sessions export ID [PATH]`: the conversation as
// Markdown on stdout, or in PATH.
func (c *cli) exportSession(args []string) int {
	fs, common := newFlagSet("tern sessions export")
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return c.flagError("tern sessions export", err, sessionsUsage)
	}
	if len(pos) == 0 || len(pos) > 2 {
		c.printf(c.stderr, "tern sessions export: give a session id, and optionally a file to write: tern sessions export ID [PATH]\n")
		return exitUsage
	}
	cfg, err := c.loadConfig(common)
	if err != nil {
		c.printf(c.stderr, "tern sessions export: %v\n", err)
		return exitUsage
	}
	info, err := session.Find(cfg.Home.V, pos[0])
	if err != nil {
		c.printf(c.stderr, "tern sessions export: %v\n", err)
		if errors.Is(err, session.ErrNotFound) || errors.Is(err, session.ErrAmbiguous) {
			return exitUsage
		}
		return exitFailed
	}
	s, err := session.Load(info.Path)
	if err != nil {
		c.printf(c.stderr, "tern sessions export: %v\n", err)
		return exitFailed
	}
	for _, w := range s.Warnings {
		c.printf(c.stderr, "tern: %s\n", sanitize.Clean(w))
	}
	md := app.ExportMarkdown(s)
	if len(pos) == 1 {
		if _, err := io.WriteString(c.stdout, md); err != nil {
			c.printf(c.stderr, "tern sessions export: %v\n", err)
			return exitFailed
		}
		return exitOK
	}
	path := pos[1]
	if !filepath.IsAbs(path) {
		path = filepath.Join(c.cwd, path)
	}
	if err := os.WriteFile(path, []byte(md), 0o600); err != nil {
		c.printf(c.stderr, "tern sessions export: %v\n", err)
		return exitFailed
	}
	c.printf(c.stderr, "tern: wrote %s\n", path)
	return exitOK
}
