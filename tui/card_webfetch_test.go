package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/tools"
)

// TestWebFetchCard checks the card: the URL as the main argument, the
// status, type and size as the summary, and the page as Markdown in the
// transcript view only.
func TestWebFetchCard(t *testing.T) {
	t.Parallel()
	c := &toolCard{name: tools.WebFetchName, state: cardRunning}
	c.setArgs([]byte(`{"url":"https://go.dev/doc/?q=1"}`))
	c.finish(&agent.ToolResult{Status: tools.StatusOK, Duration: time.Second, Summary: "200 text/html, 2 KiB",
		Output: "URL: https://go.dev/doc/\nStatus: 200\nContent-Type: text/html\nSize: 2048 bytes\n<fetched_content>\n# Documents\n\nRead **this**.\n</fetched_content>\nThe text between ..."})
	preview := stripAll(c.draw(testRC(100), detailPreview))
	if !strings.Contains(preview, "⇣ web_fetch https://go.dev/doc/?q=1") || !strings.Contains(preview, "200 text/html, 2 KiB") {
		t.Errorf("preview:\n%s", preview)
	}
	if strings.Contains(preview, "Documents") {
		t.Errorf("the collapsed card shows the page:\n%s", preview)
	}
	full := stripAll(c.draw(testRC(100), detailFull))
	if !strings.Contains(full, "Documents") || strings.Contains(full, "# Documents") || strings.Contains(full, "**this**") ||
		strings.Contains(full, "fetched_content") {
		t.Errorf("the transcript does not show the page as rendered Markdown:\n%s", full)
	}
}
