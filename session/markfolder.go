package session

import "path/filepath"

// markFolder sets the modification time of the folder holding a log to
// now, which also moves its change time: the mark that tells List a log
// in that folder changed (see folderStamp), as adding or removing a file
// there does by itself. Writers mark before and after each write, so a
// list that looked at the folder between the two sees the second. Best
// effort: a folder that cannot be marked costs the index's trust only if
// its logs also change.
func markFolder(dir string) {
	if dir == "" {
		return
	}
	touchNow(dir)
}

// logFolder is the folder to mark for the log at path: "" for a path
// without one (a Writer's stand-in sink in tests).
func logFolder(path string) string {
	dir := filepath.Dir(path)
	if dir == "." {
		return ""
	}
	return dir
}
