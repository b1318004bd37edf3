package sanitize

import "unicode"

// Bidirectional controls and zero-width characters change what a reader
// sees without showing themselves: a right-to-left override (U+202E)
// inside a command makes the rest of the line read backwards (the Trojan
// Source attack, CVE-2021-42574), a zero-width space splits a word the eye
// reads whole. Clean drops them from ordinary text; Visible shows them as
// escapes where the user must see exactly what will run or be touched.

// isBidi reports whether r is a bidirectional formatting control: the
// embeddings and overrides U+202A–U+202E, the isolates U+2066–U+2069 and
// the implicit marks U+200E, U+200F and U+061C.
func isBidi(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f ||
		(r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// isDropped reports whether Clean removes r: the bidirectional controls;
// the zero-width space U+200B, word joiner U+2060 and byte order mark
// U+FEFF, which nothing in a terminal needs; the invisible operators
// U+2061–U+2064 and the deprecated format controls U+206A–U+206F. The
// zero-width non-joiner and joiner (U+200C, U+200D) stay: emoji sequences
// (woman, ZWJ, laptop: one technologist emoji) and several scripts need
// them to render.
func isDropped(r rune) bool {
	return isBidi(r) || r == 0x200b || r == 0xfeff ||
		(r >= 0x2060 && r <= 0x2064) || (r >= 0x206a && r <= 0x206f)
}

// isHidden reports whether Visible escapes r, a printable character that
// shows nothing or passes for something else: every format character
// (category Cf: the bidirectional controls, the zero-width characters,
// the soft hyphen, the tag characters that can smuggle text past a reader),
// the line and paragraph separators, every space but U+0020 (a no-break
// space looks like an argument separator to the reader, not to the shell),
// the Hangul fillers, the variation selectors and the combining grapheme
// joiner, which render blank.
func isHidden(r rune) bool {
	switch {
	case r < 0x80:
		return false
	case r == 0x034f, r == 0x115f, r == 0x1160, r == 0x17b4, r == 0x17b5, r == 0x3164, r == 0xffa0,
		r >= 0xfe00 && r <= 0xfe0f, r >= 0xe0100 && r <= 0xe01ef:
		return true
	}
	return unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp, unicode.Zs)
}
