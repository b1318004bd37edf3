package tui

import (
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
)

// helpRow is one row of /help's Keys section, drawn from the key map. A
// row without a label is headed by its first binding's key (with the keys
// of the bindings after it that say the same); the other bindings follow
// its description as "key what".
type helpRow struct {
	label, desc string
	keys        []key.Binding
}

// helpKeyRows are the rows of /help's Keys section as [key, description].
// Every binding of the key map is in one of them, which a test checks.
func (m *model) helpKeyRows() [][2]string {
	k := &m.keys
	rows := []helpRow{
		{keys: []key.Binding{k.Send}},
		{keys: []key.Binding{k.Newline}},
		{keys: []key.Binding{k.Interrupt, k.EscEsc}},
		{keys: []key.Binding{k.Clear, k.Quit}},
		{keys: []key.Binding{k.Up, k.Down, k.Prev, k.Next}},
		{keys: []key.Binding{k.Search, k.HistSearch.Older, k.HistSearch.Accept, k.HistSearch.Cancel}},
		{keys: []key.Binding{k.PageUp, k.PageDown, k.HalfUp, k.HalfDown, k.Home, k.End}},
		{keys: []key.Binding{k.Expand, k.Editor}},
		{keys: []key.Binding{k.Transcript, k.View.SelectNext, k.View.SelectPrev, k.View.Fold, k.View.Close}},
		{keys: []key.Binding{k.Suspend, k.PasteImage}},
		{label: "@path", desc: "attach a file: @ after a space or at a line start opens a fuzzy picker, anywhere in the draft"},
		{label: "!cmd", desc: "run a shell command; it and its output go to the model with your next message"},
		{label: "#text", desc: "add a line to the project's AGENTS.md (asks first; applies from the next request)", keys: []key.Binding{k.Remember.Add}},
		{label: "approvals", keys: []key.Binding{k.Dialog.Allow, k.Dialog.Session, k.Dialog.Deny, k.Dialog.Tell, k.Dialog.Left, k.Dialog.Right, k.Dialog.Up, k.Dialog.Down}},
		{label: "lists", keys: []key.Binding{k.Choose, k.Cancel, k.Picker.Alt, k.Picker.Remove, k.Picker.Erase, k.Picker.ClearFilter}},
		{label: "plan", keys: []key.Binding{k.Plan.Accept, k.Plan.AcceptAutoEdit, k.Plan.Keep, k.Plan.Leave}},
	}
	out := make([][2]string, 0, len(rows))
	for _, r := range rows {
		out = append(out, r.render())
	}
	return out
}

// render returns the row's key column and description.
func (r helpRow) render() [2]string {
	label, parts, rest := r.label, []string{}, r.keys
	if r.desc != "" {
		parts = append(parts, r.desc)
	}
	if label == "" {
		lead := rest[0].Help()
		labels := []string{lead.Key}
		for rest = rest[1:]; len(rest) > 0 && rest[0].Help().Desc == lead.Desc; rest = rest[1:] {
			if h := rest[0].Help(); !slices.Contains(labels, h.Key) {
				labels = append(labels, h.Key)
			}
		}
		label = strings.Join(labels, " ")
		parts = append(parts, lead.Desc)
	}
	for _, b := range rest {
		// Paired keys (tab/shift+tab) share one help; say it once.
		if t := helpText(b); len(parts) == 0 || t != parts[len(parts)-1] {
			parts = append(parts, t)
		}
	}
	return [2]string{label, strings.Join(parts, " · ")}
}
