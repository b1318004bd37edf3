package approval

import "testing"

// FuzzDanger checks that reading a command line never panics and that the
// approval checks always answer: a line is either parsed or always asks.
// Seed-only in CI (not in .ci/run).
func FuzzDanger(f *testing.F) {
	for _, s := range []string{
		"go test ./...", `git log "$(echo ")")echo "; rm x; echo "x"`, `git log $'\'' ; rm x ; echo $'\''`,
		"cat <<EOF\n$(rm -rf /)\nEOF", "f() { rm -rf x; }; f", "curl -s x | python3", "echo ${a[$(id)]}",
		"for ((i=0;i<3;i++)); do echo $i; done", "bash -c 'bash -c \"bash -c rm\"'", "echo \"unterminated",
		"coproc cat", "[[ -f x ]] && { ls; }", "case $x in a) ls;; esac", "echo {a,b}{c,d} ~/x $((1+2))",
		"bash '' -c", "sh -c -- ''", "echo '' | bash", "bash <<< ''", "find . -exec {} + -fprint", "watch -n",
		"su -c", "flock -c", "exec 3< <(curl x); bash <&3", "git push -d ''", "CC= go test", "printf -v 'a['",
	} {
		f.Add(s)
	}
	d := dangerCheck{root: "/work/repo", workdir: "/work/repo", home: "/home/dev"}
	f.Fuzz(func(t *testing.T, line string) {
		tr := readShell(line, d)
		if tr.err != nil && tr.unsure == "" {
			t.Errorf("%q: parse error %v but rules may vouch for it", line, tr.err)
		}
		if why := d.reason(line); tr.err != nil && why == "" {
			t.Errorf("%q: parse error %v but no always-ask", line, tr.err)
		}
	})
}
