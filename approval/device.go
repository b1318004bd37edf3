package approval

import "strings"

// deviceReason returns why a command writing onto a device must ask:
// output redirected to /dev/sda, cp, tee, shred or dd onto one, or a disk
// tool (wipefs, fdisk, parted, mkswap, blkdiscard, ...) given one; "" when
// it writes none. /dev/null, /dev/tty, /dev/fd/N and the like are harmless.
func deviceReason(c shellCommand, words []shellWord) string {
	targets := append([]shellWord(nil), c.writes...)
	w, _ := unwrap(words)
	if len(w) > 0 {
		targets = append(targets, writtenOperands(w)...)
		switch programName(w[0]) {
		case "wipefs", "mkswap", "blkdiscard", "fdisk", "sfdisk", "sgdisk", "cfdisk", "gdisk", "parted",
			"hdparm", "cryptsetup", "badblocks", "zpool", "pvcreate", "mdadm":
			targets = append(targets, w[1:]...)
		}
	}
	for _, t := range targets {
		if dev, ok := strings.CutPrefix(t.val, "/dev/"); ok && !harmlessDevice(dev) {
			return "writes onto a device (" + t.val + ")"
		}
	}
	return ""
}
