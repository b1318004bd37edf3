// Command ternbench writes the inputs of the speed measures (issue 20): a
// long session, many sessions, a big repository. Deterministic: the same
// flags give the same files. See docs/speed.md for the measures themselves.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"

	"github.com/ternhq/tern/internal/gen"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "ternbench:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("ternbench", flag.ContinueOnError)
	what := fs.String("gen", "session", "what to write: session, sessions or repo")
	home := fs.String("home", "", "TERN_HOME to write sessions under")
	ws := fs.String("workspace", "", "workspace the sessions belong to (absolute)")
	dir := fs.String("dir", "", "folder to write the repository in")
	turns := fs.Int("turns", 2000, "turns of the long session")
	n := fs.Int("n", 10000, "how many sessions, or files of the repository")
	seed := fs.Uint64("seed", 1, "seed")
	if err := fs.Parse(args); err != nil {
		return err
	}
	switch {
	case (*what == "session" || *what == "sessions") && *home == "":
		return fmt.Errorf("-gen %s writes under a TERN_HOME: set -home (a folder; it need not exist)", *what)
	case *what == "repo" && *dir == "":
		return fmt.Errorf("-gen repo writes a repository: set -dir (a folder; it need not exist)")
	}
	switch *what {
	case "session":
		p, err := gen.Session(*home, gen.SessionSpec{Turns: *turns, CompactEvery: 400, Seed: *seed, Workspace: *ws,
			Created: time.Now().Add(-time.Duration(*turns) * time.Minute).Truncate(time.Second), Title: "the long session"})
		if err != nil {
			return err
		}
		fmt.Println(p)
	case "sessions":
		return gen.Sessions(*home, *ws, *n, *seed)
	case "repo":
		return gen.Repo(*dir, gen.RepoSpec{Files: *n, Big: 3, IgnoreRules: 2000, Seed: *seed})
	default:
		return fmt.Errorf("unknown -gen %q: want session, sessions or repo", *what)
	}
	return nil
}
