package tui

import (
	"strings"

	"github.com/ternhq/tern/internal/sanitize"
)

// idLabel shows an identifier from the gateway (a model id) on one line,
// exactly: the user picks it by what they see, so a control or bidi
// character shows as ⟨U+XXXX⟩, and a newline or tab as well rather than
// breaking the row.
func idLabel(id string) string {
	return strings.NewReplacer("\n", "⟨U+000A⟩", "\t", "⟨U+0009⟩").Replace(sanitize.Visible(id))
}
