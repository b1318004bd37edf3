package approval

// gitDiscardReason returns why git checkout, restore or switch discards
// every uncommitted change as git reset --hard does (checkout -f, switch
// --discard-changes, checkout -- . or restore . on the whole tree), or "".
// A restore of the index alone (--staged without --worktree) keeps them.
func gitDiscardReason(sub string, args []shellWord) string {
	staged, worktree := false, false
	for _, a := range args {
		v := a.val
		switch {
		case sub != "restore" && (longOpt(v, "--force", "--discard-changes") || gitShortOpt(v, 'f')):
			return "discards uncommitted changes (git " + sub + " " + v + ")"
		case sub == "restore" && (longOpt(v, "--staged") || gitShortOpt(v, 'S')):
			staged = true
		case sub == "restore" && (longOpt(v, "--worktree") || gitShortOpt(v, 'W')):
			worktree = true
		}
	}
	if sub == "switch" || staged && !worktree {
		return ""
	}
	for _, a := range args {
		switch a.val {
		case ".", "./", ":/", ":/.", "*", ":(top)", ":(top).", ":(glob)**":
			return "discards uncommitted changes (git " + sub + " " + a.val + ")"
		}
	}
	return ""
}
