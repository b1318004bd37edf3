package tui

import (
	"strings"

	"github.com/ternhq/tern/internal/sanitize"
)

// effortStatus is the reasoning effort for the status line, after the
// model: " (high)" when one is chosen and the model takes it; "" else.
func (m *model) effortStatus() string {
	effort := m.be.Effort()
	if effort == "" {
		return ""
	}
	info, ok := m.be.ModelInfo(m.be.Model())
	if !ok || !info.AcceptsEffort(effort) {
		return ""
	}
	return " (" + sanitize.Clean(effort) + ")"
}

// modelDesc describes a model in the /model picker from the model
// database: its window and, for a model that reasons, its effort levels.
func (m *model) modelDesc(id string) string {
	info, ok := m.be.ModelInfo(id)
	if !ok {
		return ""
	}
	desc := kilo(info.ContextWindow) + " ctx"
	if info.Reasons {
		desc += " · reasons"
		if len(info.EffortLevels) > 0 {
			desc += ": " + strings.Join(info.EffortLevels, "/")
		}
	}
	return desc
}

// openEfforts opens the effort picker after /model chose id, when the
// model reasons and lists its levels: the model's default first, the
// effort in force selected.
func (m *model) openEfforts(id string) {
	info, ok := m.be.ModelInfo(id)
	if !ok || !info.Reasons || len(info.EffortLevels) == 0 {
		return
	}
	cur := m.be.Effort()
	def := "the model's default"
	if info.DefaultEffort != "" {
		def += " (" + sanitize.Clean(info.DefaultEffort) + ")"
	}
	sel := effortDefault
	if info.AcceptsEffort(cur) {
		sel = cur
	}
	p := &palette{kind: palEfforts}
	for _, it := range append([]palItem{{value: effortDefault, label: effortDefault, desc: def}}, levelItems(info.EffortLevels)...) {
		if it.value == sel {
			it.desc = strings.TrimSuffix("current · "+it.desc, " · ")
		}
		p.items = append(p.items, it)
	}
	p.filter("")
	for i, it := range p.shown {
		if it.value == sel {
			p.sel = i
		}
	}
	m.input.Reset()
	m.pal = p
	m.setNotice("reasoning effort for "+sanitize.Clean(id)+": choose one, Esc keeps "+effortName(cur), false)
}

// effortDefault is the picker's row and /model's word for no effort sent:
// the model's default.
const effortDefault = "default"

// effortName names an effort for a notice.
func effortName(effort string) string {
	if effort == "" {
		return effortDefault
	}
	return sanitize.Clean(effort)
}

// setEffort chooses the reasoning effort ("default": the model's) and says
// whether the current model takes it.
func (m *model) setEffort(effort string) {
	effort = strings.ToLower(strings.TrimSpace(effort))
	if effort == effortDefault {
		effort = ""
	}
	m.be.SetEffort(effort)
	model := m.be.Model()
	info, ok := m.be.ModelInfo(model)
	switch {
	case effort == "":
		m.setNotice("reasoning effort: the model's default", false)
	case ok && info.AcceptsEffort(effort):
		m.setNotice("reasoning effort: "+effortName(effort)+" (from the next request)", false)
	case ok && info.Reasons:
		m.setNotice("reasoning effort: "+effortName(effort)+" is not one of "+sanitize.Clean(model)+"'s levels ("+strings.Join(info.EffortLevels, ", ")+"); none is sent", true)
	default:
		m.setNotice("reasoning effort: "+effortName(effort)+", sent only to models that reason; "+sanitize.Clean(model)+" does not, as far as the model database knows", true)
	}
}

// levelItems are the picker's rows for effort levels.
func levelItems(levels []string) []palItem {
	items := make([]palItem, 0, len(levels))
	for _, level := range levels {
		items = append(items, palItem{value: level, label: sanitize.Clean(level)})
	}
	return items
}
