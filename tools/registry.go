package tools

import "sort"

// Registry holds the tools offered to the model, in a fixed order so that the
// tool specs sent with every request are byte-identical (prompt caches hit).
type Registry struct {
	order []string
	tools map[string]Tool
}

// NewRegistry returns a registry holding the given tools in the given order.
func NewRegistry(ts ...Tool) *Registry {
	r := &Registry{tools: make(map[string]Tool, len(ts))}
	for _, t := range ts {
		r.Add(t)
	}
	return r
}

// Add appends a tool; a tool with the same name replaces the earlier one in place.
func (r *Registry) Add(t Tool) {
	name := t.Spec().Name
	if _, ok := r.tools[name]; !ok {
		r.order = append(r.order, name)
	}
	r.tools[name] = t
}

// Get returns the tool with that name.
func (r *Registry) Get(name string) (Tool, bool) {
	t, ok := r.tools[name]
	return t, ok
}

// Names lists the tool names in registry order.
func (r *Registry) Names() []string { return append([]string(nil), r.order...) }

// SortedNames lists the tool names alphabetically, for error messages.
func (r *Registry) SortedNames() []string {
	n := r.Names()
	sort.Strings(n)
	return n
}

// Specs returns the specs in registry order.
func (r *Registry) Specs() []Spec {
	out := make([]Spec, 0, len(r.order))
	for _, n := range r.order {
		out = append(out, r.tools[n].Spec())
	}
	return out
}
