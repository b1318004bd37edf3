package approval

import "strings"

// GrantLabel says what a grant key (Ruling.Grants) covers, in the words
// of the approval dialog, for a list of the session's grants.
func GrantLabel(key string) string {
	if key == editScope.Key {
		return editScope.Label
	}
	if tool, prefix, ok := strings.Cut(key, ":"); ok && prefix != "" {
		if tool == shellTool {
			return "commands starting with `" + prefix + "`"
		}
		return tool + " calls starting with `" + prefix + "`"
	}
	return key
}
