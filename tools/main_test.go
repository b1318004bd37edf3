package tools

import (
	"os"
	"testing"

	"github.com/ternhq/tern/tools/sandbox"
)

// TestMain lets this test binary serve as the sandbox launcher: run_shell
// starts confined commands through the running binary (see sandbox.Wrap).
func TestMain(m *testing.M) {
	sandbox.MaybeRunLauncher()
	os.Exit(m.Run())
}
