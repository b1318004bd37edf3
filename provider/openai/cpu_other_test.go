//go:build !unix

package openai

import "time"

// processCPU reports that process CPU time is not measured on this platform.
func processCPU() (time.Duration, bool) { return 0, false }
