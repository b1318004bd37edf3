package session

// ListAt is listAt for the external tests (session_test), which generate
// sessions with internal/gen.
var ListAt = listAt

// FolderCount is how many day folders the index of home holds.
func FolderCount(home string) int { return len(loadIndex(home).folders) }
