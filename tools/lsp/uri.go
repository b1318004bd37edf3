package lsp

import (
	"net/url"
	"path/filepath"
	"strings"
)

// fileURI is the file: URI of an absolute path.
func fileURI(abs string) string {
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// uriPath is the absolute path of a file: URI, "" for other URIs.
func uriPath(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	return filepath.Clean(filepath.FromSlash(u.Path))
}

// runeColumn turns a UTF-16 offset in line (0-based) of text into a
// 1-based character column.
func runeColumn(text string, line, utf16 int) int {
	for i := 0; i < line; i++ {
		j := strings.IndexByte(text, '\n')
		if j < 0 {
			return utf16 + 1
		}
		text = text[j+1:]
	}
	col, units := 1, 0
	for _, r := range text {
		if units >= utf16 || r == '\n' {
			break
		}
		units++
		if r >= 0x10000 {
			units++
		}
		col++
	}
	return col
}

// inside reports whether p is root or under it.
func inside(root, p string) bool {
	return p == root || strings.HasPrefix(p, root+string(filepath.Separator))
}
