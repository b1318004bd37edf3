package app

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider/mock"
	"github.com/ternhq/tern/tools"
)

func TestWindowSourceFollowsTheModel(t *testing.T) {
	t.Parallel()
	ws, err := tools.NewWorkspace(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	a, err := agent.New(agent.Options{Provider: mock.New(mock.Options{}), Model: "small", Tools: tools.DefaultRegistry(ws, nil), Workspace: ws, Policy: agent.PolicyAsk})
	if err != nil {
		t.Fatal(err)
	}
	release := make(chan struct{})
	w := &windowSource{
		ctx: context.Background(),
		configured: func(m string) int {
			if m == "configured" {
				return 32_000
			}
			return 0
		},
		lookup: func(_ context.Context, m string) (GatewayModel, error) {
			switch m {
			case "slow":
				<-release
				return GatewayModel{Window: 1_000_000}, nil
			case "listed":
				return GatewayModel{Window: 200_000}, nil
			}
			return GatewayModel{}, errors.New("gateway down")
		},
		database: func(m string) int {
			if m == "listed" || m == "cataloged" {
				return 400_000
			}
			return 0
		},
	}
	wait := func(want int) {
		t.Helper()
		deadline := time.Now().Add(5 * time.Second)
		for a.ContextWindow() != want && time.Now().Before(deadline) {
			time.Sleep(time.Millisecond)
		}
		if got := a.ContextWindow(); got != want {
			t.Fatalf("window = %d, want %d", got, want)
		}
	}

	a.SetModel("configured")
	w.follow(a, "configured")
	wait(32_000) // the config wins; the gateway is not asked

	a.SetModel("listed")
	w.follow(a, "listed")
	wait(200_000) // the gateway wins over the database

	a.SetModel("cataloged")
	w.follow(a, "cataloged")
	wait(400_000) // the gateway knows nothing: the database

	a.SetModel("unknown")
	w.follow(a, "unknown")
	wait(AssumedContextWindow) // a failed lookup keeps the assumed window

	// A lookup that answers after the model changed again is dropped.
	a.SetModel("slow")
	w.follow(a, "slow")
	a.SetModel("listed")
	w.follow(a, "listed")
	wait(200_000)
	close(release)
	time.Sleep(20 * time.Millisecond)
	if got := a.ContextWindow(); got != 200_000 {
		t.Fatalf("a late answer for an earlier model set the window to %d", got)
	}
}
