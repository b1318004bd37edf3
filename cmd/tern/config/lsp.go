package config

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/ternhq/tern/tools/lsp"
)

// LSP are the language-server settings: lsp, lsp_wait and the [lsp.NAME]
// tables.
type LSP struct {
	// On is false with lsp = false: no server starts, no diagnostics tool.
	On Value[bool]
	// Wait is lsp_wait, the longest an edit waits for diagnostics.
	Wait Value[time.Duration]
	// Settle is lsp_settle, how long a server must be quiet after its
	// report on an edit before tern takes it as complete.
	Settle Value[time.Duration]
	// Servers are the [lsp.NAME] tables by name.
	Servers map[string]lsp.Override
}

// lspSetting is config.toml's lsp key: false (or true), or a table of
// [lsp.NAME] server tables.
type lspSetting struct {
	off     bool
	servers map[string]lsp.Override
}

// lspServerKeys are the keys a [lsp.NAME] table may hold.
var lspServerKeys = []string{"command", "args", "extensions", "root_markers", "enabled"}

// UnmarshalTOML reads lsp = true/false or the [lsp.NAME] tables.
func (l *lspSetting) UnmarshalTOML(v any) error {
	switch x := v.(type) {
	case bool:
		l.off = !x
		return nil
	case map[string]any:
		l.servers = map[string]lsp.Override{}
		for name, raw := range x {
			t, ok := raw.(map[string]any)
			if !ok {
				return fmt.Errorf("lsp.%s is not a table; write [lsp.%s] with %s", name, name, strings.Join(lspServerKeys, ", "))
			}
			o, err := lspOverride(name, t)
			if err != nil {
				return err
			}
			l.servers[name] = o
		}
		return nil
	}
	return fmt.Errorf("lsp is %v; use lsp = false, or [lsp.NAME] tables", v)
}

// lspOverride reads one [lsp.NAME] table.
func lspOverride(name string, t map[string]any) (lsp.Override, error) {
	var o lsp.Override
	keys := make([]string, 0, len(t))
	for k := range t {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := t[k]
		var err error
		switch k {
		case "command":
			s, ok := v.(string)
			if !ok {
				err = fmt.Errorf("is not a string")
			}
			o.Command = s
		case "args":
			o.Args, err = stringList(v)
		case "extensions":
			o.Extensions, err = stringList(v)
		case "root_markers":
			o.RootMarkers, err = stringList(v)
		case "enabled":
			b, ok := v.(bool)
			if !ok {
				err = fmt.Errorf("is not true or false")
			}
			o.Enabled = &b
		default:
			err = fmt.Errorf("is unknown; a server table holds %s", strings.Join(lspServerKeys, ", "))
		}
		if err != nil {
			return lsp.Override{}, fmt.Errorf("lsp.%s.%s %w", name, k, err)
		}
	}
	return o, nil
}

// stringList reads a TOML array of strings.
func stringList(v any) ([]string, error) {
	arr, ok := v.([]any)
	if !ok {
		return nil, fmt.Errorf("is not a list of strings")
	}
	out := make([]string, 0, len(arr))
	for _, e := range arr {
		s, ok := e.(string)
		if !ok {
			return nil, fmt.Errorf("is not a list of strings")
		}
		out = append(out, s)
	}
	return out, nil
}

// resolveLSP sets the language-server settings from the file over the
// defaults (on, lsp_wait 2s, lsp_settle 250ms, the known servers).
func (c *Config) resolveLSP(fc fileConfig, file Source) []error {
	var errs []error
	c.LSP.On = Value[bool]{V: true, Source: Source{Kind: SourceDefault}}
	c.LSP.Servers = map[string]lsp.Override{}
	if fc.LSP != nil {
		if fc.LSP.off {
			c.LSP.On = Value[bool]{V: false, Source: file}
		}
		for n, o := range fc.LSP.servers {
			c.LSP.Servers[n] = o
		}
	}
	c.LSP.Wait = Value[time.Duration]{V: lsp.DefaultWait, Source: Source{Kind: SourceDefault}}
	if fc.LSPWait != nil {
		d, err := time.ParseDuration(*fc.LSPWait)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("lsp_wait from %s: %q is not a duration such as \"2s\" or \"500ms\"", file, *fc.LSPWait))
		case d <= 0 || d > time.Minute:
			errs = append(errs, fmt.Errorf("lsp_wait from %s is %s; give a wait from \"100ms\" to \"60s\" (lsp = false turns language servers off)", file, d))
		default:
			c.LSP.Wait = Value[time.Duration]{V: d, Source: file}
		}
	}
	c.LSP.Settle = Value[time.Duration]{V: lsp.DefaultSettle, Source: Source{Kind: SourceDefault}}
	if fc.LSPSettle != nil {
		d, err := time.ParseDuration(*fc.LSPSettle)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("lsp_settle from %s: %q is not a duration such as \"250ms\"", file, *fc.LSPSettle))
		case d < 10*time.Millisecond || d > c.LSP.Wait.V:
			errs = append(errs, fmt.Errorf("lsp_settle from %s is %s; give a period from \"10ms\" up to lsp_wait (%s)", file, d, c.LSP.Wait.V))
		default:
			c.LSP.Settle = Value[time.Duration]{V: d, Source: file}
		}
	}
	return errs
}
