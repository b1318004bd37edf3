package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// readRange is what a read_file call asked for: the file and its window.
type readRange struct {
	path          string
	offset, limit int
}

// readRangeOf parses a read_file call's arguments, the defaults filled in
// and the path as the workspace resolves it.
func readRangeOf(tool tools.Tool, args json.RawMessage) (readRange, bool) {
	var a struct {
		Path   string `json:"path"`
		Offset int    `json:"offset"`
		Limit  int    `json:"limit"`
	}
	if json.Unmarshal(args, &a) != nil || a.Path == "" {
		return readRange{}, false
	}
	r := readRange{path: filepath.Clean(a.Path), offset: max(a.Offset, 1), limit: a.Limit}
	if r.limit <= 0 {
		r.limit = 2000
	}
	if p, err := tool.Preview(context.Background(), args); err == nil && p.Path != "" {
		r.path = p.Path
	}
	return r, true
}

// unchangedRead answers a read_file call whose result would repeat,
// byte for byte, the result of an earlier read of the same file and range
// still in the conversation (not compacted away): the file did not change
// there, so the model is pointed at that result instead of being sent the
// content again. ok is false when the result must go as it is.
func (a *Agent) unchangedRead(pc *preparedCall, res ToolResult) (ToolResult, bool) {
	if pc.call.Name != tools.ReadFileName || res.Status != tools.StatusOK || pc.tool == nil || pc.argErr != nil {
		return res, false
	}
	content := formatResult(pc.call.Name, res.Status, res.Output)
	if len(content) < 200 {
		return res, false // a pointer would not be shorter
	}
	a.mu.Lock()
	earlier := a.sameResultsLocked(content)
	a.mu.Unlock()
	if len(earlier) == 0 {
		return res, false
	}
	want, ok := readRangeOf(pc.tool, pc.args)
	if !ok {
		return res, false
	}
	for i := len(earlier) - 1; i >= 0; i-- {
		if r, ok := readRangeOf(pc.tool, json.RawMessage(earlier[i].Arguments)); ok && r == want {
			return ToolResult{
				Status:  tools.StatusOK,
				Summary: "unchanged",
				Output: fmt.Sprintf("%s (%s): unchanged since call %s; its result above is the current content.",
					want.path, res.Summary, earlier[i].ID),
				Duration: res.Duration,
			}, true
		}
	}
	return res, false
}

// sameResultsLocked returns the read_file calls of the conversation whose
// result is content, oldest first. a.mu must be held.
func (a *Agent) sameResultsLocked(content string) []provider.ToolCall {
	var ids map[string]bool
	for _, m := range a.messages {
		if m.Role == provider.RoleTool && m.Content == content {
			if ids == nil {
				ids = map[string]bool{}
			}
			ids[m.ToolCallID] = true
		}
	}
	if ids == nil {
		return nil
	}
	var out []provider.ToolCall
	for _, m := range a.messages {
		for _, c := range m.ToolCalls {
			if ids[c.ID] && c.Name == tools.ReadFileName {
				out = append(out, c)
			}
		}
	}
	return out
}
