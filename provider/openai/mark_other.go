//go:build !linux

package openai

import "net"

// markable returns c as it is: only Linux honours a TCP receive low mark
// for the poller's wake-ups.
func markable(c net.Conn) net.Conn { return c }
