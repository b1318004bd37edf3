package approval

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ternhq/tern/tools"
)

func TestProtectedShellWrites(t *testing.T) {
	t.Parallel()
	d := dangerCheck{root: "/work/repo", workdir: "/work/repo", home: "/home/dev"}
	for _, tc := range []struct {
		cmd  string
		want string // part of the reason; "" for commands that must not ask
	}{
		// home dotfiles
		{"echo 'alias x=y' >> ~/.bashrc", "~/.bashrc, a dotfile"},
		{"echo x > $HOME/.zshrc", "~/.zshrc"},
		{`echo x > "${HOME}/.profile"`, "~/.profile"},
		{"cat >> ~/.profile <<EOF\nexport X=1\nEOF", "~/.profile"},
		{"printf x | tee -a ~/.profile", "~/.profile"},
		{"tee ~/.config/fish/config.fish < f", "~/.config/fish/config.fish"},
		{"sed -i 's/a/b/' ~/.zshrc", "~/.zshrc"},
		{"sed -i.bak -e s/a/b/ /home/dev/.gitconfig", "~/.gitconfig"},
		{"perl -pi -e 's/a/b/' ~/.npmrc", "~/.npmrc"},
		{"sudo tee /home/dev/.bashrc < x", "~/.bashrc"},
		{"dd if=x of=$HOME/.bashrc", "~/.bashrc"},
		{"> ~/.bash_profile", "~/.bash_profile"},
		{"echo x &> ~/.bash_logout", "~/.bash_logout"},
		{"echo key >> ~/.ssh/authorized_keys", "~/.ssh/authorized_keys"},
		{"cp dotfiles/bashrc ~/.bashrc", "~/.bashrc"},
		{"ln -sf $(pwd)/rc ~/.zshrc", "~/.zshrc"},
		{"mv ~/.bashrc /tmp/x", "~/.bashrc"},
		{"cd && echo x >> .bashrc", "~/.bashrc"},
		{"cd ~ && echo x >> .bashrc", "~/.bashrc"},
		{"echo x > ~other/.bashrc", "home directory"},
		// nested
		{"bash -c 'echo x >> ~/.bashrc'", "~/.bashrc"},
		{"echo $(echo x > ~/.bashrc)", "~/.bashrc"},
		{"true && (echo x > ~/.zshenv)", "~/.zshenv"},
		// .git/
		{"cp evil.sh .git/hooks/pre-commit", ".git/hooks/pre-commit"},
		{"echo 'exit 0' > .git/hooks/pre-push", ".git/"},
		{"echo x >> .git/config", ".git/config"},
		{"cd .git && echo x > config", ".git/config"},
		{"cd sub && echo x > ../.git/config", ".git/config"},
		{"ln -sf /tmp/x .git/hooks/post-checkout", ".git/"},
		{"mv hook .git/hooks/", ".git/"},
		{"install -m 755 hook -t .git/hooks", ".git/"},
		{"cp -t .git/hooks hook", ".git/"},
		{"rm -f .git/index.lock", ".git/index.lock"},
		{"echo x >$REPO/.git/config", ".git/"},
		{"echo x > /other/repo/.git/config", ".git/"},
		{"git config core.hooksPath /tmp/h", ".git/config"},
		{"git -C sub config alias.x '!sh evil'", ".git/config"},
		{"git config --unset core.editor", ".git/config"},
		{"git config --global alias.co checkout", "~/.gitconfig"},
		{"git config set --global user.name x", "~/.gitconfig"},
		{"git config --file .git/config x.y z", ".git/config"},
		// .tern/
		{"touch .tern/config.toml", ".tern/"},
		{"echo x > /work/repo/.tern/rules", ".tern/"},
		{"echo x > ~/.tern/config.toml", ".tern/"},
		// settings commands
		{"npm config set registry http://evil.example", "~/.npmrc"},
		{"npm set //registry/:_authToken x", "~/.npmrc"},

		// must not ask
		{"echo x > notes.txt", ""},
		{"go test ./... 2>&1 | tee test.log", ""},
		{"echo x >&2", ""},
		{"cmd 2>&1 1>&-", ""},
		{"cat ~/.bashrc", ""},
		{"grep x ~/.zshrc > out.txt", ""},
		{"cp ~/.bashrc backup.txt", ""},
		{"sed 's/a/b/' ~/.zshrc > zshrc.new", ""},
		{"diff <(cat ~/.bashrc) x", ""},
		{"cat < ~/.profile", ""},
		{"echo x > /tmp/file", ""},
		{"tee /dev/null", ""},
		{"echo x > .gitignore", ""},
		{"echo x > .github/workflows/ci.yml", ""},
		{"echo x > .env.example", ""},
		{"mkdir -p build && touch build/.keep", ""},
		{"git config user.name", ""},
		{"git config --get user.email", ""},
		{"git config --list --show-origin", ""},
		{"git config get user.name", ""},
		{"git commit -m 'update .git/config docs'", ""},
		{"git add .gitignore .tern-example", ""},
		{"npm config get registry", ""},
		{"npm config set x y --location=project", ""},
		{"cat <<EOF > script.sh\necho x > ~/.bashrc\nEOF", ""},
		{"echo '> ~/.bashrc'", ""},
	} {
		got := d.reason(tc.cmd)
		switch {
		case tc.want == "" && got != "":
			t.Errorf("%q: asks (%s), want no always-ask", tc.cmd, got)
		case tc.want != "" && !strings.Contains(got, tc.want):
			t.Errorf("%q: reason %q, want one mentioning %q", tc.cmd, got, tc.want)
		}
	}
}

func TestProtectedUnknownHome(t *testing.T) {
	t.Parallel()
	d := dangerCheck{root: "/work/repo", workdir: "/work/repo"}
	if got := d.reason("echo x >> ~/.bashrc"); !strings.Contains(got, "dotfile") {
		t.Errorf("reason %q", got)
	}
}

func TestProtectedThroughSymlink(t *testing.T) {
	t.Parallel()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, root := filepath.Join(dir, "home"), filepath.Join(dir, "home", "src", "repo")
	if err := os.MkdirAll(root, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".bashrc"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(home, ".bashrc"), filepath.Join(root, "rc")); err != nil {
		t.Fatal(err)
	}
	d := dangerCheck{root: root, workdir: root, home: home}
	if got := d.reason("echo x >> rc"); !strings.Contains(got, "~/.bashrc") {
		t.Errorf("write through a link to ~/.bashrc: reason %q", got)
	}
}

// TestProtectedEdits checks the file tools: .tern/ and home dotfiles ask
// under every policy, even with an allow rule and a grant; only
// --dangerously-skip-approvals runs them unasked.
func TestProtectedEdits(t *testing.T) {
	t.Parallel()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	dotWS := filepath.Join(home, ".dotfiles")
	for _, d := range []string{filepath.Join(home, "src"), dotWS} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	newAgent := func(t *testing.T, root string, skip bool) (*session, tools.Kind, tools.Kind) {
		t.Helper()
		ws, err := tools.NewWorkspace(root)
		if err != nil {
			t.Fatal(err)
		}
		_, edit, shell := fakeTools()
		a, err := newSession(Config{Workspace: ws, Home: home,
			SkipApprovals: skip, Rules: Rules{Allow: []string{"edit_file", "run_shell"}}})
		if err != nil {
			t.Fatal(err)
		}
		a.grant([]string{editScope.Key, "run_shell:echo"})
		return a, edit, shell
	}
	for _, tc := range []struct {
		name, root, path string
		skip, always     bool
	}{
		{"tern settings in the workspace", filepath.Join(home, "src"), ".tern/config.toml", false, true},
		{"an ordinary file", filepath.Join(home, "src"), "main.go", false, false},
		{"a dotfile of the project", filepath.Join(home, "src"), ".eslintrc", false, false},
		{"workspace is home: rc file", home, ".bashrc", false, true},
		{"workspace is home: in a dot directory", home, ".config/git/config", false, true},
		{"workspace is home: a project file", home, "src/main.go", false, false},
		{"workspace in a dot directory", dotWS, "bashrc", false, false},
		{"skip approvals", filepath.Join(home, "src"), ".tern/config.toml", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			a, edit, _ := newAgent(t, tc.root, tc.skip)
			args, _ := json.Marshal(map[string]string{"path": tc.path})
			r := a.judge(edit, "edit_file", args, PolicyFullAuto)
			if got := r.Verdict == Ask && r.Always; got != tc.always {
				t.Errorf("%s: verdict %v always %v (%s), want always-ask %v", tc.path, r.Verdict, r.Always, r.Reason, tc.always)
			}
			if tc.always && !strings.HasPrefix(r.Reason, "This call ") {
				t.Errorf("reason %q", r.Reason)
			}
		})
	}
	t.Run("shell under full-auto with an allow rule and a grant", func(t *testing.T) {
		t.Parallel()
		a, _, shell := newAgent(t, filepath.Join(home, "src"), false)
		r := a.judge(shell, "run_shell", json.RawMessage(`{"command":"echo 'curl x | sh' >> ~/.bashrc"}`), PolicyFullAuto)
		if r.Verdict != Ask || !r.Always || !strings.Contains(r.Reason, "~/.bashrc") {
			t.Errorf("verdict %v always %v reason %q", r.Verdict, r.Always, r.Reason)
		}
		r = a.judge(shell, "run_shell", json.RawMessage(`{"command":"echo ok > out.txt"}`), PolicyFullAuto)
		if r.Verdict != Run {
			t.Errorf("ordinary redirect: verdict %v (%s)", r.Verdict, r.Reason)
		}
	})
}
