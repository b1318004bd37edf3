package tui

import (
	"image/color"

	"charm.land/lipgloss/v2"

	"github.com/ternhq/tern/tui/markdown"
)

// theme holds every style the interface draws with, for one background.
type theme struct {
	dark    bool
	noColor bool
	md      markdown.Style

	user, userBar        lipgloss.Style
	dim, faint, bold     lipgloss.Style
	accent, ok, bad      lipgloss.Style
	warn, info           lipgloss.Style
	reasoning            lipgloss.Style
	cardTitle, cardArg   lipgloss.Style
	errTitle, errBody    lipgloss.Style
	diffAdd, diffDel     lipgloss.Style
	diffHunk, diffLineNo lipgloss.Style
	dialogBorder         lipgloss.Style
	option, optionSel    lipgloss.Style
	status, badge        lipgloss.Style
	chip, palSel         lipgloss.Style
	rule                 lipgloss.Style
}

// newTheme builds the styles for a dark or light background; with noColor
// it uses only bold, faint and reverse, as NO_COLOR asks.
func newTheme(dark, noColor bool) *theme {
	ld := lipgloss.LightDark(dark)
	col := func(light, darkc string) color.Color {
		if noColor {
			return lipgloss.NoColor{}
		}
		return ld(lipgloss.Color(light), lipgloss.Color(darkc))
	}
	accent := col("#5A3FC0", "#B8A6FF")
	green := col("#1A7F37", "#7EE787")
	red := col("#CF222E", "#FF7B72")
	yellow := col("#9A6700", "#E3B341")
	blue := col("#0969DA", "#79C0FF")
	grey := col("#6E7781", "#8B949E")
	t := &theme{dark: dark, noColor: noColor, md: markdown.Dark}
	switch {
	case noColor:
		t.md = markdown.Plain
	case !dark:
		t.md = markdown.Light
	}
	s := lipgloss.NewStyle
	t.user = s().Bold(true)
	t.userBar = s().Foreground(accent).Bold(true)
	t.dim = s().Foreground(grey)
	t.faint = s().Faint(true)
	t.bold = s().Bold(true)
	t.accent = s().Foreground(accent)
	t.ok = s().Foreground(green)
	t.bad = s().Foreground(red)
	t.warn = s().Foreground(yellow)
	t.info = s().Foreground(blue)
	t.reasoning = s().Foreground(grey).Italic(true)
	t.cardTitle = s().Bold(true)
	t.cardArg = s().Foreground(blue)
	t.errTitle = s().Foreground(red).Bold(true)
	t.errBody = s()
	t.diffAdd = s().Foreground(green)
	t.diffDel = s().Foreground(red)
	t.diffHunk = s().Foreground(blue)
	t.diffLineNo = s().Foreground(grey)
	t.dialogBorder = s().Border(lipgloss.RoundedBorder()).BorderForeground(yellow).Padding(0, 1)
	t.option = s().Padding(0, 1)
	t.optionSel = s().Padding(0, 1).Reverse(true).Bold(true)
	t.status = s().Foreground(grey)
	t.badge = s().Foreground(yellow).Bold(true).Reverse(true).Padding(0, 1)
	t.chip = s().Foreground(accent).Reverse(true).Padding(0, 1)
	t.palSel = s().Reverse(true)
	t.rule = s().Foreground(grey)
	if noColor {
		t.diffAdd = s().Bold(true)
		t.diffDel = s().Strikethrough(true)
		t.reasoning = s().Faint(true).Italic(true)
		t.dim = s().Faint(true)
		t.status = s().Faint(true)
		t.rule = s().Faint(true)
	}
	return t
}
