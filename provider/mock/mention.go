package mock

import (
	"strings"
)

// mentionedHeader opens the part of a user message where the interface
// attached the @-mentioned files (tui's dispatch writes it); the scene is
// chosen from what the user typed, before it.
const mentionedHeader = "\n\nThe files I mentioned:\n"

// revertPrefix opens the note the agent puts before a message after /undo
// or a code rewind (agent.RevertNotePrefix); it is not the user's request.
const revertPrefix = "[Files reverted] "

// mentionRE finds @path and @"path with spaces" mentions: an @ at the start
// or after whitespace, as the interface finds them.
var mentionRE = lazyRegexp(`(^|\s)@(?:"([^"\n]+)"|([^\s@]+))`)

// resolveMentions is the request as the user meant it: the attached files
// cut off and each @path mention replaced by its path, so "explain
// @util/strings.go" reads util/strings.go.
func resolveMentions(user string) string {
	if i := strings.Index(user, mentionedHeader); i >= 0 {
		user = user[:i]
	}
	return mentionRE().ReplaceAllStringFunc(user, func(m string) string {
		sub := mentionRE().FindStringSubmatch(m)
		p := sub[2]
		if p == "" {
			p = sub[3]
		}
		if strings.ContainsRune(p, ' ') {
			p = "`" + p + "`" // a quoted path stays one argument
		}
		return sub[1] + p
	})
}

// stripRevertNote removes the agent's note about reverted files from the
// start of a message.
func stripRevertNote(s string) string {
	if !strings.HasPrefix(s, revertPrefix) {
		return s
	}
	if _, after, ok := strings.Cut(s, "\n\n"); ok {
		return after
	}
	return s
}
