package approval

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ternhq/tern/tools"
)

// TestReadOnlyCommandsRunUnasked judges command lines under the ask policy
// with no rules: those that only read run unasked, and every way a listed
// command can write a file, run a program, hang, or read outside the
// workspace or a secret asks as before.
func TestReadOnlyCommandsRunUnasked(t *testing.T) {
	t.Parallel()
	_, _, shell := fakeTools()
	dir := t.TempDir()
	for _, f := range []string{"a.go", "b.go", "README.md", ".env", "server.key", "sub/c.go", "hostile/--pre=evil.sh", "hostile/x.txt"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A hostile repository can hold links out of the workspace or to a
	// secret, and a committed folder laid out as a bare repository whose
	// config runs programs (core.fsmonitor) when git starts in it.
	for link, to := range map[string]string{"plink": "/etc/passwd", "elink": ".env", "rootlink": "/", "sub/up": ".."} {
		if err := os.Symlink(to, filepath.Join(dir, link)); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{".git/HEAD", "bare/HEAD", "bare/config", "bare/objects/x", "bare/refs/x"} {
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("ref: refs/heads/main\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ws, err := tools.NewWorkspace(dir)
	if err != nil {
		t.Fatal(err)
	}
	a, err := newSession(Config{Workspace: ws})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cmd  string
		want judged
	}{
		// Commands that only read.
		{"ls", unasked},
		{"ls -la sub", unasked},
		{"ls .", unasked},
		{"pwd", unasked},
		{"echo hello world", unasked},
		{"cat README.md", unasked},
		{"cat a.go | wc -l", unasked},
		{"head -n 20 a.go", unasked},
		{"tail -n 5 README.md", unasked},
		{"grep -n func a.go b.go", unasked},
		{"grep -c x *.go", unasked},
		{"rg -n func a.go", unasked},
		{"cat a.go | rg func", unasked},
		{"find . -name '*.go' -type f", unasked},
		{"git status", unasked},
		{"git log --oneline -n 5", unasked},
		{"git diff HEAD~1 -- a.go", unasked},
		{"git show HEAD:a.go", unasked},
		{"git blame a.go", unasked},
		{"git --no-pager log -p", unasked},
		{"ls sub/*.go", unasked},
		{"ls 2>/dev/null && git status", unasked},
		{"(ls; pwd) 2>&1", unasked},
		{"sort a.go | head", unasked},
		{"git log | head -20", unasked},

		// Writes a file.
		{"ls > out.txt", asks},
		{"echo x >> README.md", asks},
		{"cat a.go | tee out.txt", asks},
		{"sort -o out.txt a.go", asks},
		{"sort -uo out.txt a.go", asks},
		{"sort --output=out.txt a.go", asks},
		{"find . -fprint out.txt", asks},
		{"find . -fprintf out.txt %p", asks},
		{"find . -fls out.txt", asks},
		{"git diff --output=out.txt", asks},
		{"git diff --outp=out.txt", asks},
		{"git log --output out.txt", asks},
		{"git log -p --output-directory=x", asks},
		{"go list -modfile=x.mod ./...", asks},
		{"go list -mod=mod ./...", asks},
		{"go vet -debug-actiongraph=x.json ./...", asks},
		{"uniq a.go out.txt", asks},
		{"sed -i s/a/b/ a.go", asks},

		// Runs a program.
		{"rg --pre=./evil.sh func a.go", asks},
		{"rg --pre ./evil.sh func a.go", asks},
		{"rg -z func a.go", asks},
		{"rg func hostile/*", asks}, // a file named --pre=evil.sh becomes an option
		{"cat hostile/*", asks},
		{"find . -exec cat {} ;", asks},
		{"find . -execdir ls ;", asks},
		{"find . -ok ls ;", asks},
		{"find . -name x -delete", always},
		{"git -c core.pager=./evil.sh log", asks},
		{"git -c diff.external=./evil.sh diff", asks},
		{"git -p log", asks},
		{"git --paginate log", asks},
		{"git diff --ext-diff", asks},
		{"git log -p --textconv", asks},
		{"git --exec-path=/tmp log", asks},
		{"go vet -vettool=./evil ./...", asks},
		{"go list -toolexec=./evil ./...", asks},
		{"go vet -exec=./evil ./...", asks},
		{"go vet -gcflags=-cpuprofile=x ./...", asks},
		{"go test ./...", asks},
		{"go env -w GOFLAGS=-x", asks},
		{"awk 'BEGIN{system(\"touch x\")}'", asks},
		{"sort --compress-program=./evil a.go", asks},
		{"less README.md", asks},
		{"xargs cat < a.go", asks},
		{"./ls", asks},
		{"/tmp/ls", asks},
		{"env ls", asks},
		{"echo $(touch x)", asks},
		{"cat <(touch x)", asks},
		{"ls `touch x`", asks},
		{"PAGER=./evil git log", asks},
		{"GIT_EXTERNAL_DIFF=./evil git diff", asks},
		{"X=1 ls", asks},
		{"ls $DIR", asks},
		{"ls ${x}", asks},
		{"bash -c ls", asks},
		{"git status; touch x", asks},
		{"ls & touch x", asks},
		{"ls &", asks},

		// Waits forever.
		{"tail -f README.md", asks},
		{"tail -F README.md", asks},
		{"tail -nf README.md", asks},
		{"tail --follow=name README.md", asks},
		{"tail -20f README.md", asks},

		{"while true; do ls; done", asks},
		{"until false; do pwd; done", asks},
		{"for f in a.go b.go; do wc -l $f; done", asks}, // $f expands
		{"for f in a.go b.go; do cat a.go; done", unasked},
		{"for i in {1..100000000}; do true; done", asks}, // bash builds every word first
		{"for i in {1..200}; do for j in {1..200}; do cat a.go; done; done", asks},
		{"for i in {1..3}; do for j in 1 2; do cat a.go; done; done", unasked},
		{"for a in *; do for b in *; do for c in *; do cat a.go; done; done; done", asks}, // files cubed
		{"for a in sub/*; do cat a.go; done", unasked},

		// Reads outside the workspace or a secret.
		{"cat /etc/passwd", asks},
		{"cat ~/.ssh/id_rsa", asks},
		{"cat ../x", asks},
		{"ls sub/../..", asks},
		{"cat .env", asks},
		{"cat server.key", asks},
		{"git show HEAD:.env", asks},
		{"grep -f .env a.go", asks},
		{"grep -f.env a.go", asks},
		{"wc --files0-from=.env", asks},
		{"cat < .env", asks},
		{"cat *.key", asks},
		{"cat *", asks},       // server.key
		{"ls sub/*", unasked}, // no secret there
		{"cat .*", asks},      // .env
		{"grep -r x .", asks},
		{"grep -rn x", asks},
		{"grep --recursive x .", asks},
		{"rg func", asks},
		{"rg func sub", asks},
		{"rg --hidden func a.go", asks},
		{"rg -uu func a.go", asks},
		{"rg --no-ignore func a.go", asks},
		{"git -C /tmp log", asks},
		{"git --git-dir=/tmp/x log", asks},
		{"git diff --no-index /etc/passwd a.go", asks},
		{"find / -name x", asks},
		{"head -c 10 /dev/zero", asks},
		{"git branch -D main", asks},
		{"printf -v x %s y", asks},

		// Holes found by attacking the list.
		{"grep -e -- -r -e '' .", asks},   // -- is -e's pattern, so -r is an option: reads .env
		{"grep -e -- -R x", asks},         // the same, a walk following links
		{"tail -e -- -f README.md", asks}, // no break at -- in tail either
		{"tail +1f README.md", asks},      // the obsolete form follows
		{"tail +f README.md", asks},
		{"tail -c +1 -- -f README.md", asks}, // safe (-f is a file here) but asks: no break at --
		{"sort -t -- -o out.txt a.go", asks},
		{"grep -nf.env a.go", asks}, // -f in a cluster reads .env
		{"grep -nf/etc/passwd a.go", asks},
		{"grep -if../x a.go", asks},
		{"rg -nf.env a.go", asks},
		{"ls -" + strings.Repeat("a", 100000), asks}, // each suffix is a path to check: bounded
		{"ls " + strings.Repeat("a:", 50000), asks},
		{"git show :0:.env", asks}, // the index entry of .env
		{"git log -L:x:.env", asks},
		{"cat plink", asks}, // a link out of the workspace
		{"cat elink", asks}, // a link to a secret
		{"head -n 3 sub/up/.env", asks},
		{"wc -l sub/up/README.md", unasked}, // a link that stays inside
		{"ls rootlink", asks},
		{"ls rootlink/etc", asks},
		{"cat rootlink/etc/passwd", asks},
		{"grep -f elink a.go", asks},
		{"grep --file=plink a.go", asks},
		{"ls -RL .", asks}, // follows the link to /
		{"ls --dereference sub", asks},
		{"du -L .", asks},
		{"du --derefer .", asks},
		{"find -L . -name x", asks},
		{"find . -follow -name x", asks},
		{"printf '/\\0' | du --files0-from=- -a", asks}, // names read from the pipe
		{"printf '/etc/passwd\\0' | wc --files0-from=- -c", asks},
		{"printf '/\\0' | find -files0-from - -name id_rsa", asks},
		{"wc --files0=a.go", asks},
		{"git log --show-signature", asks}, // runs gpg on a signed commit
		{"git show --show-sig HEAD", asks},
		{"git log --pretty=format:%GG", asks},
		{"git log '--format=%G?'", asks},
		{"git log --format=%+GS", asks},
		{"git log --grep -- --output=out.txt", asks},
		{"git diff . sub", asks}, // outside a repository (or one of another owner): --no-index, .env printed
		{"git diff --stat -- sub hostile", asks},
		{"git diff HEAD~1 HEAD -- sub", unasked}, // git scans for -- first, but no break is safer
		{"go list ./...", asks},                  // may download modules or a toolchain (go.mod)
		{"go list -m rsc.io/quote@latest", asks}, // asks the module proxy
		{"go vet ./...", asks},                   // compiles: cgo runs the C compiler, writes the build cache
		{"ls -la", unasked},
		{"wc -l sub/c.go a.go", unasked},
		{"grep -n -e x -- a.go", unasked},
		{"git log --format=%H%n%s -n 3", unasked},
		{"du -sh sub", unasked},
		{"find sub -type f -name '*.go'", unasked},
	} {
		args, _ := json.Marshal(map[string]string{"command": tc.cmd})
		r := a.judge(shell, "run_shell", args, PolicyAsk)
		if got := classify(r, PolicyAsk); got != tc.want {
			t.Errorf("%q: %s (%s), want %s", tc.cmd, got, r.Reason, tc.want)
		}
	}
	// Lines run from a workdir: git started in a committed folder laid out
	// as a bare repository reads its config, which runs programs.
	for _, tc := range []struct {
		cmd, workdir string
		want         judged
	}{
		{"git status", "bare", asks},
		{"git diff", "bare", asks},
		{"git log", "bare/refs", asks},
		{"git status", "sub", unasked},
		{"ls", "bare", unasked},
		{"git status", "rootlink", asks},
	} {
		args, _ := json.Marshal(map[string]string{"command": tc.cmd, "workdir": tc.workdir})
		r := a.judge(shell, "run_shell", args, PolicyAsk)
		if got := classify(r, PolicyAsk); got != tc.want {
			t.Errorf("%q in %s: %s (%s), want %s", tc.cmd, tc.workdir, got, r.Reason, tc.want)
		}
	}
	// A workspace in no repository: git diff a b compares them as folders
	// (--no-index), secret files included, so git asks there.
	bare := t.TempDir()
	if err := os.WriteFile(filepath.Join(bare, ".env"), []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(bare, "e"), 0o755); err != nil {
		t.Fatal(err)
	}
	ws2, err := tools.NewWorkspace(bare)
	if err != nil {
		t.Fatal(err)
	}
	a2, err := newSession(Config{Workspace: ws2})
	if err != nil {
		t.Fatal(err)
	}
	// A partial clone (git clone --filter): git show fetches the contents
	// it lacks from the remote.
	partial := t.TempDir()
	if err := os.Mkdir(filepath.Join(partial, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := "[remote \"origin\"]\n\turl = https://example.com/x\n\tpromisor = true\n\tpartialclonefilter = blob:none\n"
	if err := os.WriteFile(filepath.Join(partial, ".git", "config"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	ws3, err := tools.NewWorkspace(partial)
	if err != nil {
		t.Fatal(err)
	}
	a3, err := newSession(Config{Workspace: ws3})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		a    *session
		cmd  string
		want judged
	}{
		{a2, "git diff . e", asks},
		{a2, "git diff -- . e", asks},
		{a2, "git log", asks},
		{a2, "ls", unasked},
		{a3, "git show HEAD~1", asks},
		{a3, "git log -p", asks},
		{a3, "ls", unasked},
	} {
		args, _ := json.Marshal(map[string]string{"command": tc.cmd})
		r := tc.a.judge(shell, "run_shell", args, PolicyAsk)
		if got := classify(r, PolicyAsk); got != tc.want {
			t.Errorf("%q in %s: %s (%s), want %s", tc.cmd, tc.a.ws.Root, got, r.Reason, tc.want)
		}
	}
}

// TestPartialCloneWorktree reads the config of a repository whose .git
// is a file (a worktree) through its commondir.
func TestPartialCloneWorktree(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	common := filepath.Join(dir, "main", ".git")
	gitdir := filepath.Join(common, "worktrees", "wt")
	if err := os.MkdirAll(gitdir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(gitdir, "commondir"), []byte("../..\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dotgit := filepath.Join(dir, "wt", ".git")
	if err := os.MkdirAll(filepath.Dir(dotgit), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dotgit, []byte("gitdir: "+gitdir+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		cfg  string
		want bool
	}{
		{"[core]\n\tbare = false\n", false},
		{"[extensions]\n\tpartialClone = origin\n", true},
	} {
		if err := os.WriteFile(filepath.Join(common, "config"), []byte(tc.cfg), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := partialClone(dotgit); got != tc.want {
			t.Errorf("config %q: partialClone %v, want %v", tc.cfg, got, tc.want)
		}
	}
}

// TestReadOnlyPolicies checks that only the policies that ask for shell
// commands are changed: read-only still refuses them, and deny rules win.
func TestReadOnlyPolicies(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		policy Policy
		deny   []string
		want   Verdict
	}{
		{"ask", PolicyAsk, nil, Run},
		{"auto-edit", PolicyAutoEdit, nil, Run},
		{"read-only policy refuses shell commands", PolicyReadOnly, nil, Deny},
		{"a deny rule wins", PolicyAsk, []string{"run_shell:ls *"}, Deny},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			_, _, shell := fakeTools()
			ws, err := tools.NewWorkspace(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			a, err := newSession(Config{Workspace: ws,
				Rules: Rules{Deny: tc.deny}})
			if err != nil {
				t.Fatal(err)
			}
			r := a.judge(shell, "run_shell", json.RawMessage(`{"command":"ls -la"}`), tc.policy)
			if r.Verdict != tc.want {
				t.Errorf("verdict %d, want %d (%s)", r.Verdict, tc.want, r.Message)
			}
		})
	}
}

// TestSearchPathOutside: with the workspace, ".", an empty or a relative
// entry in $PATH, ls may be a script of the workspace.
func TestSearchPathOutside(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	for _, tc := range []struct {
		path string
		want bool
	}{
		{"/usr/local/bin:/usr/bin:/bin", true},
		{"/usr/bin:.", false},
		{"/usr/bin::/bin", false},
		{":/usr/bin", false},
		{"bin:/usr/bin", false},
		{"/usr/bin:" + filepath.Join(root, "node_modules", ".bin"), false},
		{root + ":/usr/bin", false},
	} {
		if got := searchPathOutside(tc.path, root); got != tc.want {
			t.Errorf("PATH=%s: %v, want %v", tc.path, got, tc.want)
		}
	}
}
