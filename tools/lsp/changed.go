package lsp

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	"github.com/ternhq/tern/tools"
)

// Changed sends the new content of abs to its server and waits, up to the
// manager's Wait, for the file's diagnostics; errors that appeared in other
// files with this change come along.
func (m *Manager) Changed(ctx context.Context, abs string, content []byte) (tools.DiagnosticReport, bool) {
	start := time.Now()
	c := m.clientFor(abs, true)
	if c == nil {
		return tools.DiagnosticReport{}, false
	}
	parent := ctx
	ctx, cancel := context.WithDeadline(ctx, start.Add(m.opts.Wait))
	defer cancel()
	rep := tools.DiagnosticReport{Servers: []string{c.cfg.Name}}
	uri := fileURI(abs)
	c.mu.Lock()
	d := c.docs[uri]
	if d == nil {
		d = &doc{}
		c.docs[uri] = d
	}
	d.version++
	d.text = string(content)
	c.noteDiskLocked(abs)
	before := c.errorKeysLocked(uri)
	seq, version := c.seq, d.version
	if c.state == StateRunning {
		c.sendLocked(uri, d)
	}
	c.mu.Unlock()

	if !m.waitReady(ctx, c) {
		if parent.Err() == nil { // an interrupted call needs no note
			rep.Notes = append(rep.Notes, m.notReady(c))
		}
		return rep, true
	}
	if !m.waitReport(ctx, c, uri, seq, version) {
		if parent.Err() != nil {
			return rep, true
		}
		c.mu.Lock()
		failed := c.state == StateFailed
		c.mu.Unlock()
		if failed {
			rep.Notes = append(rep.Notes, m.notReady(c))
		} else {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s did not report on this change within %s; call diagnostics later to see its report", c.cfg.Name, m.opts.Wait))
		}
		return rep, true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for u, p := range c.diags {
		mine := u == uri
		if !mine && p.seq <= seq {
			continue // not reported again since the change: not caused by it
		}
		for _, ld := range p.diags {
			if !mine && (ld.Severity != int(tools.SeverityError) || before[errorKey(u, ld)]) {
				continue
			}
			if td, ok := m.convert(c, u, ld); ok {
				rep.Diagnostics = append(rep.Diagnostics, td)
			}
		}
	}
	return rep, true
}

// errorKeysLocked are the errors c holds for files other than uri, so a
// change can tell which errors it caused. Call with c.mu held.
func (c *client) errorKeysLocked(uri string) map[string]bool {
	keys := map[string]bool{}
	for u, p := range c.diags {
		if u == uri {
			continue
		}
		for _, d := range p.diags {
			if d.Severity == int(tools.SeverityError) {
				keys[errorKey(u, d)] = true
			}
		}
	}
	return keys
}

// errorKey identifies a diagnostic across reports.
func errorKey(uri string, d lspDiagnostic) string {
	return fmt.Sprintf("%s\x00%d\x00%d\x00%s", uri, d.Range.Start.Line, d.Range.Start.Character, d.Message)
}

// convert turns a server's diagnostic into the tools' form, with a
// workspace-relative path; false for files outside the workspace.
func (m *Manager) convert(c *client, uri string, d lspDiagnostic) (tools.Diagnostic, bool) {
	abs := uriPath(uri)
	if abs == "" || !inside(m.opts.Root, abs) || abs == m.opts.Root {
		return tools.Diagnostic{}, false
	}
	rel, err := filepath.Rel(m.opts.Root, abs)
	if err != nil {
		return tools.Diagnostic{}, false
	}
	sev := tools.Severity(d.Severity)
	if sev < tools.SeverityError || sev > tools.SeverityHint {
		sev = tools.SeverityError // the protocol: absent means the client decides
	}
	col := d.Range.Start.Character + 1
	if doc := c.docs[uri]; doc != nil {
		col = runeColumn(doc.text, d.Range.Start.Line, d.Range.Start.Character)
	}
	return tools.Diagnostic{
		Path: filepath.ToSlash(rel), Line: d.Range.Start.Line + 1, Col: col,
		Severity: sev, Message: d.Message, Source: d.Source,
	}, true
}
