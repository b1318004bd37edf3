package tui

import (
	"reflect"
	"slices"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
)

// releaseKeys takes the keys of own out of every textarea binding. The
// input's key handler sees them first, but some fall through (ctrl+d on a
// draft) and must not then edit the draft; doing it from the key map means
// rebinding a key needs no change here.
func releaseKeys(ta *textarea.KeyMap, own []key.Binding) {
	taken := map[string]bool{}
	for _, b := range own {
		for _, k := range b.Keys() {
			taken[k] = true
		}
	}
	v := reflect.ValueOf(ta).Elem()
	for i := range v.NumField() {
		if !v.Type().Field(i).IsExported() {
			continue
		}
		b, ok := v.Field(i).Addr().Interface().(*key.Binding)
		if !ok {
			continue
		}
		keep := slices.DeleteFunc(slices.Clone(b.Keys()), func(k string) bool { return taken[k] })
		if len(keep) < len(b.Keys()) {
			b.SetKeys(keep...) // none left: the binding is off
		}
	}
}
