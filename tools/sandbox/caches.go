package sandbox

import "os"

// createCaches creates the caches of caches that do not exist yet, with
// their missing parents, readable by their owner only: the sandbox can only
// grant paths that exist, and a build tool that finds its cache missing
// creates it, which the sandbox would refuse outside the cache (mkdir
// ~/.cache/go-build: permission denied on a fresh machine). Each path comes
// from ToolchainCaches: under the home directory or where the tool's own
// environment variable points, where the tool would create it anyway. A
// cache that cannot be created stays missing; the tool says why when it
// runs. A cache whose path has become a symbolic link somewhere (a command
// replaced its parent with a link to /etc) is neither created nor granted.
func createCaches(caches []string) {
	for _, c := range unmovedPaths(caches) {
		if lstatMissing(c) {
			_ = os.MkdirAll(c, 0o700)
		}
	}
}
