package mock

import (
	"path"
	"strings"
)

// commentText is what the edit scene adds; the check command greps for it.
const commentText = "Added by tern (offline scripted provider)."

// commentStyle is how a file type writes a line comment.
type commentStyle struct {
	open, close string
	// none is true for formats without comments (JSON): the scene refuses.
	none bool
}

// styleFor chooses the comment syntax from the file name.
func styleFor(p string) commentStyle {
	switch strings.ToLower(path.Base(p)) {
	case "makefile", "gnumakefile", "dockerfile", "containerfile", "justfile", "rakefile", "gemfile",
		".gitignore", ".dockerignore", ".gitattributes", ".editorconfig":
		return commentStyle{open: "# "}
	}
	switch strings.ToLower(path.Ext(p)) {
	case ".py", ".sh", ".bash", ".zsh", ".fish", ".toml", ".yaml", ".yml", ".rb", ".pl", ".r",
		".conf", ".cfg", ".tf", ".nix", ".mk", ".ps1", ".cmake":
		return commentStyle{open: "# "}
	case ".md", ".markdown", ".mdx", ".html", ".htm", ".xml", ".svg", ".vue":
		return commentStyle{open: "<!-- ", close: " -->"}
	case ".sql", ".lua", ".hs", ".elm":
		return commentStyle{open: "-- "}
	case ".css":
		return commentStyle{open: "/* ", close: " */"}
	case ".json", ".jsonl", ".ndjson", ".ipynb":
		return commentStyle{none: true}
	}
	return commentStyle{open: "// "}
}

// line renders the comment with the given indentation.
func (c commentStyle) line(indent string) string {
	return indent + c.open + commentText + c.close
}

// newFile is the content write_file creates when the file does not exist: the
// comment, plus a package clause for Go so the package still builds.
func newFile(p string, c commentStyle) string {
	if strings.ToLower(path.Ext(p)) == ".go" {
		return c.line("") + "\npackage " + goPackageFor(p) + "\n"
	}
	return c.line("") + "\n"
}

// goPackageFor guesses a package name from the directory, "main" at the root.
func goPackageFor(p string) string {
	dir := path.Base(path.Dir(strings.ReplaceAll(p, "\\", "/")))
	var b strings.Builder
	for _, r := range strings.ToLower(dir) {
		if r >= 'a' && r <= 'z' || r == '_' || (r >= '0' && r <= '9' && b.Len() > 0) {
			b.WriteRune(r)
		}
	}
	if b.Len() == 0 {
		return "main"
	}
	return b.String()
}
