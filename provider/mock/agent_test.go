package mock_test

import (
	"context"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider/mock"
	"github.com/ternhq/tern/tools"
)

// startAgent runs the real agent with the real tools and the offline
// provider in dir until the test ends; set adjusts its options.
func startAgent(t *testing.T, dir string, set func(*agent.Options)) *agent.Agent {
	t.Helper()
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	reg := tools.DefaultRegistry(ws, os.Environ())
	opts := agent.Options{
		Provider: mock.New(mock.Options{}), Model: "mock", Tools: reg, Workspace: ws,
		System: agent.BuildSystemPrompt(agent.SystemInfo{OS: runtime.GOOS, Workspace: ws.Root}, reg),
	}
	if set != nil {
		set(&opts)
	}
	a, err := agent.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	done := make(chan struct{})
	go func() {
		defer close(done)
		a.Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		for range a.Events() {
		}
		<-done
	})
	return a
}
