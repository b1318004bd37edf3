package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/ternhq/tern/tools/mcp"
)

// config.toml is edited by `tern mcp add` and `tern mcp remove` with
// targeted text edits, not by decoding and encoding it again: every byte
// outside the server's table (comments, order, formatting) stays as it was.
// Each edit is checked by parsing the result before it is written.

// AddMCPServer appends a [mcp_servers.NAME] table to the config file at
// path (created if missing). It refuses a name already configured.
func AddMCPServer(path string, s mcp.ServerConfig) error {
	if err := s.Validate(); err != nil {
		return err
	}
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("read %s: %w", path, err)
	}
	fc, _, err := readFile(path)
	if err != nil {
		return err
	}
	if _, ok := fc.MCPServers[s.Name]; ok {
		return fmt.Errorf("%s already configures the MCP server %s; remove it first (tern mcp remove %s)", path, s.Name, s.Name)
	}
	var b strings.Builder
	b.Write(data)
	if len(data) > 0 && !strings.HasSuffix(string(data), "\n") {
		b.WriteByte('\n')
	}
	if len(data) > 0 {
		b.WriteByte('\n')
	}
	b.WriteString("[mcp_servers." + s.Name + "]\n")
	if s.URL != "" {
		b.WriteString("url = " + tomlString(s.URL) + "\n")
		writeInlineTable(&b, "headers", s.Headers)
	} else {
		b.WriteString("command = " + tomlString(s.Command) + "\n")
		if len(s.Args) > 0 {
			q := make([]string, len(s.Args))
			for i, a := range s.Args {
				q[i] = tomlString(a)
			}
			b.WriteString("args = [" + strings.Join(q, ", ") + "]\n")
		}
		writeInlineTable(&b, "env", s.Env)
	}
	if s.StartupTimeout > 0 {
		fmt.Fprintf(&b, "startup_timeout = %s\n", tomlSeconds(s.StartupTimeout))
	}
	if s.ToolTimeout > 0 {
		fmt.Fprintf(&b, "tool_timeout = %s\n", tomlSeconds(s.ToolTimeout))
	}
	return writeChecked(path, b.String(), func(fc fileConfig) bool { _, ok := fc.MCPServers[s.Name]; return ok })
}

// RemoveMCPServer deletes the [mcp_servers.NAME] table (and its sub-tables,
// such as [mcp_servers.NAME.env]) from the config file at path.
func RemoveMCPServer(path, name string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	fc, _, err := readFile(path)
	if err != nil {
		return err
	}
	if _, ok := fc.MCPServers[name]; !ok {
		return fmt.Errorf("%s configures no MCP server %s", path, name)
	}
	lines := strings.SplitAfter(string(data), "\n")
	var out []string
	skipping, found := false, false
	for _, l := range lines {
		if h, ok := tableHeader(l); ok {
			skipping = h == name
			found = found || skipping
		}
		if !skipping {
			out = append(out, l)
		}
	}
	if !found {
		return fmt.Errorf("the MCP server %s is not written as a [mcp_servers.%s] table in %s; remove it by hand", name, name, path)
	}
	text := strings.Join(out, "")
	text = strings.TrimRight(text, "\n")
	if text != "" {
		text += "\n"
	}
	return writeChecked(path, text, func(fc fileConfig) bool { _, ok := fc.MCPServers[name]; return !ok })
}

// headerRE matches a table header line and captures the table's key;
// compiled when first needed (tern mcp add and remove), not in every
// command's start-up.
var headerRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\s*\[\s*([^\[\]]+?)\s*\]\s*(#.*)?$`) })

// tableHeader reads a table header line: for a table of an MCP server (or
// a sub-table of one) it returns the server's name; for any other table
// it returns "" and true.
func tableHeader(line string) (string, bool) {
	m := headerRE().FindStringSubmatch(strings.TrimRight(line, "\r\n"))
	if m == nil {
		return "", false
	}
	parts := splitKey(m[1])
	if len(parts) >= 2 && parts[0] == "mcp_servers" {
		return parts[1], true
	}
	return "", true
}

// splitKey splits a dotted TOML key, unquoting quoted parts.
func splitKey(k string) []string {
	var parts []string
	var cur strings.Builder
	quote := byte(0)
	for i := 0; i < len(k); i++ {
		c := k[i]
		switch {
		case quote != 0 && c == quote:
			quote = 0
		case quote != 0:
			cur.WriteByte(c)
		case c == '"' || c == '\'':
			quote = c
		case c == '.':
			parts = append(parts, strings.TrimSpace(cur.String()))
			cur.Reset()
		case c == ' ' || c == '\t':
		default:
			cur.WriteByte(c)
		}
	}
	return append(parts, strings.TrimSpace(cur.String()))
}

// writeChecked writes text to path (atomically) after checking that it
// parses and that ok holds for the result.
func writeChecked(path, text string, ok func(fileConfig) bool) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".config-*.toml")
	if err != nil {
		return err
	}
	defer func() { _ = os.Remove(tmp.Name()) }() // gone after the rename
	if _, err := tmp.WriteString(text); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	fc, _, err := readFile(tmp.Name())
	if err != nil {
		return fmt.Errorf("the edit would break %s (%w); it was not written", path, err)
	}
	if !ok(fc) {
		return fmt.Errorf("the edit of %s did not come out as intended; it was not written", path)
	}
	mode := os.FileMode(0o600)
	if st, err := os.Stat(path); err == nil {
		mode = st.Mode().Perm()
	}
	if err := os.Chmod(tmp.Name(), mode); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// writeInlineTable writes key = { K = "V", ... } with sorted keys.
func writeInlineTable(b *strings.Builder, key string, m map[string]string) {
	if len(m) == 0 {
		return
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = tomlString(k) + " = " + tomlString(m[k])
	}
	b.WriteString(key + " = { " + strings.Join(parts, ", ") + " }\n")
}

// tomlString quotes s as a TOML basic string.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// tomlSeconds writes a timeout as whole seconds, or as a duration string.
func tomlSeconds(d time.Duration) string {
	if d%time.Second == 0 {
		return fmt.Sprint(int64(d / time.Second))
	}
	return tomlString(d.String())
}
