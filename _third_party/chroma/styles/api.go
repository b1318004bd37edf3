package styles

import (
	"embed"
	"io/fs"
	"sort"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

//go:embed *.xml
var embedded embed.FS

// Registry of Styles.
//
// tern: it is filled on first use (Get, Names or Register), not when the
// package is initialised: parsing the embedded styles took 10-14 ms of every
// start. Code that reads Registry directly must call one of them first.
var Registry = map[string]*chroma.Style{}

// Fallback style. Reassign to change the default fallback style.
//
// tern: set when the registry is filled.
var Fallback *chroma.Style

var loadOnce sync.Once

// load fills Registry with the embedded styles once. Styles registered
// before that stay: upstream registered them after the embedded ones.
func load() {
	loadOnce.Do(func() {
		files, err := fs.ReadDir(embedded, ".")
		if err != nil {
			panic(err)
		}
		for _, file := range files {
			if file.IsDir() {
				continue
			}
			r, err := embedded.Open(file.Name())
			if err != nil {
				panic(err)
			}
			style, err := chroma.NewXMLStyle(r)
			if err != nil {
				panic(err)
			}
			if _, ok := Registry[style.Name]; !ok {
				Registry[style.Name] = style
			}
			_ = r.Close()
		}
		Fallback = Registry["swapoff"]
		setCompat()
	})
}

// Register a chroma.Style.
func Register(style *chroma.Style) *chroma.Style {
	load()
	Registry[style.Name] = style
	return style
}

// Names of all available styles.
func Names() []string {
	load()
	out := []string{}
	for name := range Registry {
		out = append(out, name)
	}
	sort.Strings(out)
	return out
}

// Get named style, or Fallback.
func Get(name string) *chroma.Style {
	load()
	if style, ok := Registry[name]; ok {
		return style
	}
	return Fallback
}
