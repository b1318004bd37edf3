package doctor

import (
	"strings"
	"testing"
)

func TestDoctorReportsLanguageServers(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, file string
		want       []string
	}{
		{"defaults", "", []string{"on (default), lsp_wait 2s (default), lsp_settle 250ms (default); on PATH:"}},
		{"off", "lsp = false\n", []string{"off (config "}},
		{"wait and a server of one's own", "lsp_wait = \"500ms\"\n[lsp.mine]\ncommand = \"tern-no-such-server\"\nextensions = [\".x\"]\n",
			[]string{"lsp_wait 500ms (config ", "not found: mine"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			checks, _ := run(t, setup{env: map[string]string{"MOCK": "1"}, file: tc.file})
			c := find(checks, "language servers")
			if c.Mark != Pass {
				t.Errorf("mark %v: %s", c.Mark, c.Detail)
			}
			for _, w := range tc.want {
				if !strings.Contains(c.Detail, w) {
					t.Errorf("lacks %q: %s", w, c.Detail)
				}
			}
		})
	}
}
