package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// acpSDKVersion is the @agentclientprotocol/sdk the end-to-end test's
// editor is written with: the last release with ClientSideConnection (2.x
// replaced it with client()). .ci/run installs the same.
const acpSDKVersion = "1.9.0"

// acpSDKDir is the folder whose node_modules holds the SDK: outside the
// repository, in the user's cache (TERN_ACP_SDK_DIR overrides it).
func acpSDKDir(t *testing.T) string {
	if d := os.Getenv("TERN_ACP_SDK_DIR"); d != "" {
		return d
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		t.Fatalf("no cache directory for the ACP SDK (set TERN_ACP_SDK_DIR): %v", err)
	}
	return filepath.Join(cache, "tern-ci", "acp-node")
}

// TestE2EACPTypeScriptClient drives the built binary from the protocol's
// official TypeScript SDK, so a client nobody here wrote checks tern's side
// of the wire.
func TestE2EACPTypeScriptClient(t *testing.T) {
	t.Parallel()
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: the TypeScript SDK's client cannot run")
	}
	dir := acpSDKDir(t)
	entry := filepath.Join(dir, "node_modules", "@agentclientprotocol", "sdk", "dist", "acp.js")
	if _, err := os.Stat(entry); err != nil {
		// .ci/run installs it; a developer's first run does it here.
		npm, lerr := exec.LookPath("npm")
		if lerr != nil {
			t.Fatalf("the ACP SDK is not in %s and npm is missing to install it (.ci/run does)", dir)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		install := exec.Command(npm, "install", "--no-audit", "--no-fund", "--prefix", dir, "@agentclientprotocol/sdk@"+acpSDKVersion)
		if out, err := install.CombinedOutput(); err != nil {
			t.Fatalf("npm install the ACP SDK: %v\n%s", err, out)
		}
	}
	g := newFakeGateway(t, scripted)
	ws := t.TempDir()
	script, err := filepath.Abs(filepath.Join("testdata", "acp_client.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, script, ternBin, ws)
	cmd.Env = append(testEnv(t, online(g)), "ACP_SDK_DIR="+dir)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	done := make(chan struct{})
	var out []byte
	go func() {
		defer close(done)
		out, err = cmd.Output()
	}()
	select {
	case <-done:
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		<-done
		t.Fatalf("the TypeScript client did not finish; stderr:\n%s", stderr.String())
	}
	if err != nil {
		t.Fatalf("node: %v\nstdout: %s\nstderr: %s", err, out, stderr.String())
	}
	var got struct {
		Error           string   `json:"error"`
		ProtocolVersion int      `json:"protocolVersion"`
		Agent           string   `json:"agent"`
		LoadSession     bool     `json:"loadSession"`
		Modes           []string `json:"modes"`
		StopReason      string   `json:"stopReason"`
		UnknownSession  any      `json:"unknownSession"`
		Text            string   `json:"text"`
		ToolKinds       []string `json:"toolKinds"`
		Updates         []string `json:"updates"`
		Permissions     []struct {
			Title   string   `json:"title"`
			Options []string `json:"options"`
		} `json:"permissions"`
		Diffs []struct {
			Path    string `json:"path"`
			NewText string `json:"newText"`
		} `json:"diffs"`
	}
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("the client's report: %v\n%s", err, out)
	}
	if got.Error != "" {
		t.Fatalf("the client failed: %s\nstderr: %s", got.Error, stderr.String())
	}
	if got.ProtocolVersion != 1 || got.Agent != "tern" || !got.LoadSession || len(got.Modes) != 5 {
		t.Errorf("initialize/new: %+v", got)
	}
	if got.StopReason != "end_turn" || !strings.Contains(got.Text, "with a greeting.") {
		t.Errorf("prompt: stopReason %q, text %q", got.StopReason, got.Text)
	}
	if len(got.Permissions) != 1 || !slices.Equal(got.Permissions[0].Options, []string{"allow_once", "allow_always", "reject_once", "reject_always"}) {
		t.Errorf("permissions: %+v", got.Permissions)
	}
	if !slices.Contains(got.ToolKinds, "edit") || len(got.Diffs) == 0 || filepath.Base(got.Diffs[0].Path) != "hello.txt" {
		t.Errorf("tool calls: kinds %q, diffs %+v", got.ToolKinds, got.Diffs)
	}
	if !slices.Contains(got.Updates, "current_mode_update") || !slices.Contains(got.Updates, "available_commands_update") {
		t.Errorf("updates lack the mode or the commands: %q", got.Updates)
	}
	if code, ok := got.UnknownSession.(float64); !ok || code != -32002 {
		t.Errorf("prompt on an unknown session: %v", got.UnknownSession)
	}
	if b, err := os.ReadFile(filepath.Join(ws, "hello.txt")); err != nil || string(b) != "hello from tern\n" {
		t.Errorf("hello.txt: %q %v", b, err)
	}
}
