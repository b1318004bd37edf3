package gen

import (
	"fmt"
	"time"
)

// Sessions writes n short sessions (two turns each, one a minute apart,
// seeded from seed) under home for workspace, the way a long-used
// installation looks to `tern sessions` and the /resume picker.
func Sessions(home, workspace string, n int, seed uint64) error {
	start := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC)
	for i := range n {
		_, err := Session(home, SessionSpec{
			Turns: 2, Seed: seed + uint64(i), Workspace: workspace,
			Created: start.Add(time.Duration(i) * 17 * time.Minute), Title: fmt.Sprintf("generated session %d", i),
		})
		if err != nil {
			return fmt.Errorf("session %d of %d: %w", i+1, n, err)
		}
	}
	return nil
}
