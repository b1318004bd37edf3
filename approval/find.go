package approval

import "strings"

// findReason checks find: a find that deletes what it finds (-delete, or
// -exec/-execdir/-ok/-okdir running rm, unlink, rmdir, shred or a shell
// script that does) always asks unless every starting point is a path
// strictly inside the workspace that rm -r could remove without asking.
func (d dangerCheck) findReason(args []shellWord, cwds []string) string {
	var starts []shellWord
	i := 0
	// -H -L -P -D opts -Olevel come before the starting points.
	for i < len(args) && (args[i].val == "-H" || args[i].val == "-L" || args[i].val == "-P" ||
		strings.HasPrefix(args[i].val, "-O")) {
		i++
	}
	for i < len(args) && args[i].val == "-D" && i+1 < len(args) {
		i += 2
	}
	for ; i < len(args); i++ {
		v := args[i].val
		if strings.HasPrefix(v, "-") && len(v) > 1 || v == "(" || v == "!" || v == "," {
			break
		}
		starts = append(starts, args[i])
	}
	action := ""
	for j := i; j < len(args); j++ {
		switch v := args[j].val; v {
		case "-delete":
			action = "-delete"
		case "-exec", "-execdir", "-ok", "-okdir":
			if j+1 < len(args) && findExecDeletes(args[j+1:]) {
				action = v + " " + args[j+1].val
			}
		}
	}
	if action == "" {
		return ""
	}
	if len(starts) == 0 {
		starts = []shellWord{{val: "."}}
	}
	for _, s := range starts {
		for _, cwd := range cwds {
			if r := d.rmTarget(s, cwd); r != "" {
				return "deletes what find finds (" + action + ") " + r
			}
		}
	}
	return ""
}

// findExecDeletes reports whether the command of find -exec (its words up
// to ; or +) removes files.
func findExecDeletes(words []shellWord) bool {
	end := len(words)
	for i, w := range words {
		if w.val == ";" || w.val == "+" {
			end = i
			break
		}
	}
	w, _ := unwrap(words[:end])
	if len(w) == 0 {
		return false
	}
	switch prog := programName(w[0]); {
	case prog == "rm" || prog == "unlink" || prog == "rmdir" || prog == "shred":
		return true
	case isShellName(prog):
		if script, ok := shellScript(w[1:]); ok {
			for _, f := range strings.FieldsFunc(script.val, func(r rune) bool {
				return strings.ContainsRune(" \t\n;&|()'\"", r)
			}) {
				switch programName(shellWord{val: f}) {
				case "rm", "unlink", "rmdir", "shred":
					return true
				}
			}
		}
		return false
	case !literalName(w[0]):
		return true
	}
	return false
}
