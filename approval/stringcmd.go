package approval

import "strings"

// stringCommand returns the command line a program runs through a shell
// from a string argument: su -c, runuser -c, script -c, flock ... -c, sg
// group -c take one; watch joins its arguments into one. ok is false for
// other programs.
func stringCommand(words []shellWord) (string, bool) {
	if len(words) == 0 {
		return "", false
	}
	switch prog := programName(words[0]); prog {
	case "su", "runuser", "script", "flock", "sg":
		for i, a := range words[1:] {
			if v, ok := strings.CutPrefix(a.val, "--command="); ok {
				return v, true
			}
			short := len(a.val) > 1 && a.val[0] == '-' && a.val[1] != '-' && strings.HasSuffix(a.val, "c")
			if (short || a.val == "--command") && i+2 < len(words) {
				return words[i+2].val, true
			}
		}
	case "watch":
		args := words[1:]
		for len(args) > 0 && strings.HasPrefix(args[0].val, "-") {
			switch args[0].val {
			case "-n", "--interval", "-q", "--equexit":
				args = args[min(1, len(args)-1):]
			}
			args = args[1:]
		}
		parts := make([]string, 0, len(args))
		for _, a := range args {
			parts = append(parts, a.val)
		}
		return strings.Join(parts, " "), len(parts) > 0
	}
	return "", false
}
