package config

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestLSPSettings(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		toml    string
		on      bool
		wait    time.Duration
		settle  time.Duration // 0: the default
		servers string        // name=command:args:extensions:enabled, sorted
		err     string
	}{
		{name: "defaults", on: true, wait: 2 * time.Second},
		{name: "off", toml: "lsp = false\n", wait: 2 * time.Second},
		{name: "wait", toml: "lsp_wait = \"750ms\"\n", on: true, wait: 750 * time.Millisecond},
		{name: "bad wait", toml: "lsp_wait = \"soon\"\n", on: true, wait: 2 * time.Second, err: "lsp_wait"},
		{name: "settle", toml: "lsp_settle = \"1s\"\n", on: true, wait: 2 * time.Second, settle: time.Second},
		{name: "settle beyond the wait", toml: "lsp_settle = \"3s\"\n", on: true, wait: 2 * time.Second, err: "up to lsp_wait (2s)"},
		{name: "zero wait", toml: "lsp_wait = \"0s\"\n", on: true, wait: 2 * time.Second, err: "from \"100ms\""},
		{name: "tables", on: true, wait: 2 * time.Second,
			toml:    "[lsp.gopls]\nenabled = false\n[lsp.mine]\ncommand = \"my-ls\"\nargs = [\"--stdio\"]\nextensions = [\".x\"]\nroot_markers = [\"x.toml\"]\n",
			servers: "gopls=::[]:false mine=my-ls:--stdio:[.x]:<nil>"},
		{name: "unknown key", toml: "[lsp.gopls]\ncomand = \"x\"\n", on: true, wait: 2 * time.Second, err: "lsp.gopls.comand is unknown"},
		{name: "wrong type", toml: "[lsp.gopls]\nargs = \"-v\"\n", on: true, wait: 2 * time.Second, err: "lsp.gopls.args is not a list of strings"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			home := writeHome(t, tc.toml)
			c, err := Load(Inputs{Getenv: envFunc(map[string]string{EnvHome: home})})
			settle := tc.settle
			if settle == 0 {
				settle = 250 * time.Millisecond
			}
			if c.LSP.On.V != tc.on || c.LSP.Wait.V != tc.wait || c.LSP.Settle.V != settle {
				t.Errorf("on %v wait %s settle %s", c.LSP.On.V, c.LSP.Wait.V, c.LSP.Settle.V)
			}
			var servers []string
			for _, n := range sortedKeys(c.LSP.Servers) {
				o := c.LSP.Servers[n]
				enabled := "<nil>"
				if o.Enabled != nil {
					enabled = map[bool]string{true: "true", false: "false"}[*o.Enabled]
				}
				servers = append(servers, n+"="+o.Command+":"+strings.Join(o.Args, ",")+":["+strings.Join(o.Extensions, ",")+"]:"+enabled)
			}
			if got := strings.Join(servers, " "); tc.err == "" && got != tc.servers {
				t.Errorf("servers %q, want %q", got, tc.servers)
			}
			switch {
			case tc.err == "" && err != nil:
				t.Errorf("%v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Errorf("error %v, want one about %q", err, tc.err)
			}
		})
	}
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}
