//go:build !linux

package tools

import "os"

// fdPath cannot tell, on this system, which path an open file has: callers
// then judge the name they opened (the root still keeps the open inside
// the workspace).
func fdPath(*os.File) (string, bool) { return "", false }

// fdName cannot tell, on this system, the path of a descriptor.
func fdName(int) (string, bool) { return "", false }

// mountedOver cannot tell, on this system, whether a descriptor is a mount
// point; the link count and name are all there is to go by. Nor does it
// give the descriptor's identity (the caller asks fstat).
func mountedOver(dirfd, fd int) (bool, fdIdentity) { return false, fdIdentity{} }
