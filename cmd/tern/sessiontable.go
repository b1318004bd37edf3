package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/session"
)

// sessionColumns are the aligned columns of `tern sessions`; the title
// follows them unaligned.
const sessionColumns = 4

// writeSessionTable writes rows (each sessionColumns cells and a title) as
// text/tabwriter does with padding 2 and spaces, byte for byte, computing
// the column widths in one pass instead: tabwriter took a sixth of listing
// 10,000 sessions, scanning and copying every byte through its cells. Rows
// holding a byte tabwriter treats specially go through tabwriter itself.
func writeSessionTable(w io.Writer, rows [][sessionColumns + 1]string) error {
	var widths [sessionColumns]int
	size := 0
	for _, r := range rows {
		for i, cell := range r {
			if strings.ContainsAny(cell, "\t\n\v\f") || strings.IndexByte(cell, tabwriter.Escape) >= 0 {
				return writeSessionTabwriter(w, rows)
			}
			size += len(cell)
			if i < sessionColumns {
				widths[i] = max(widths[i], utf8.RuneCountInString(cell))
			}
		}
	}
	const padding = 2
	buf := make([]byte, 0, size+len(rows)*(sessionColumns*(padding+8)+1))
	for _, r := range rows {
		for i, cell := range r[:sessionColumns] {
			buf = append(buf, cell...)
			for range widths[i] + padding - utf8.RuneCountInString(cell) {
				buf = append(buf, ' ')
			}
		}
		buf = append(buf, r[sessionColumns]...)
		buf = append(buf, '\n')
	}
	if _, err := w.Write(buf); err != nil {
		return fmt.Errorf("write the list: %w", err)
	}
	return nil
}

// writeSessionTabwriter is writeSessionTable through text/tabwriter.
func writeSessionTabwriter(w io.Writer, rows [][sessionColumns + 1]string) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	for _, r := range rows {
		if _, err := io.WriteString(tw, strings.Join(r[:], "\t")+"\n"); err != nil {
			return fmt.Errorf("write the list: %w", err)
		}
	}
	if err := errors.Join(tw.Flush(), bw.Flush()); err != nil {
		return fmt.Errorf("write the list: %w", err)
	}
	return nil
}

// sessionHeading is the first row of `tern sessions`.
var sessionHeading = [sessionColumns + 1]string{"LAST USED", "MESSAGES", "MODEL", "ID", "TITLE"}

// lastUsedLayout is how the LAST USED column shows a time.
const lastUsedLayout = "2006-01-02 15:04"

// sessionRow is the row of `tern sessions` for in: its cells as they are
// printed (all adds the workspace to the title).
func sessionRow(in *session.Info, all bool) [sessionColumns + 1]string {
	return [sessionColumns + 1]string{in.Updated.Local().Format(lastUsedLayout), strconv.Itoa(in.Messages),
		sanitize.Clean(in.Model), in.ID, sessionTitle(in, all)}
}

// sessionTitle is the last cell of in's row.
func sessionTitle(in *session.Info, all bool) string {
	title := sanitize.Clean(in.Title)
	if in.Problem != "" {
		title = "(cannot be read: " + sanitize.Clean(in.Problem) + ")"
	}
	if all {
		title += "  [" + sanitize.Clean(in.Workspace) + "]"
	}
	return strings.ReplaceAll(title, "\t", " ")
}

// writeSessionList writes the table of infos (heading first) as
// writeSessionTable would write their rows, without making them: the
// widths in a first pass, then each row into a 64 KB buffer that goes out
// as it fills. Building 10,000 rows of strings and a 1 MB table was a
// tenth of `tern sessions`. Cells tabwriter gives a meaning to send the
// whole table the row-building way.
func writeSessionList(w io.Writer, infos []session.Info, all bool) error {
	var widths [sessionColumns]int
	for i, cell := range sessionHeading[:sessionColumns] {
		widths[i] = len(cell)
	}
	var scratch [64]byte
	var model, cleanModel string // the last model cleaned: most rows share it
	modelWidth := 0
	for i := range infos {
		in := &infos[i]
		if in.Model != model || i == 0 {
			model, cleanModel = in.Model, sanitize.Clean(in.Model)
			modelWidth = utf8.RuneCountInString(cleanModel)
		}
		ts := in.Updated.Local().AppendFormat(scratch[:0], lastUsedLayout)
		title := in.Title
		if in.Problem != "" || all {
			title = sessionTitle(in, all) // rare, or --all: made twice
		}
		if special(cleanModel) || special(in.ID) || special(strings.ReplaceAll(sanitize.Clean(title), "\t", " ")) || specialBytes(ts) {
			return writeSessionRows(w, infos, all)
		}
		widths[0] = max(widths[0], utf8.RuneCount(ts))
		widths[1] = max(widths[1], len(strconv.AppendInt(scratch[:0], int64(in.Messages), 10)))
		widths[2] = max(widths[2], modelWidth)
		widths[3] = max(widths[3], utf8.RuneCountInString(in.ID))
	}
	const padding = 2
	bw := bufio.NewWriterSize(w, 64<<10)
	pad := func(n int) {
		for range n {
			_ = bw.WriteByte(' ')
		}
	}
	for i, cell := range sessionHeading[:sessionColumns] {
		_, _ = bw.WriteString(cell)
		pad(widths[i] + padding - len(cell))
	}
	_, _ = bw.WriteString(sessionHeading[sessionColumns])
	_ = bw.WriteByte('\n')
	model = ""
	for i := range infos {
		in := &infos[i]
		if in.Model != model || i == 0 {
			model, cleanModel = in.Model, sanitize.Clean(in.Model)
			modelWidth = utf8.RuneCountInString(cleanModel)
		}
		ts := in.Updated.Local().AppendFormat(scratch[:0], lastUsedLayout)
		_, _ = bw.Write(ts)
		pad(widths[0] + padding - utf8.RuneCount(ts))
		n := strconv.AppendInt(scratch[:0], int64(in.Messages), 10)
		_, _ = bw.Write(n)
		pad(widths[1] + padding - len(n))
		_, _ = bw.WriteString(cleanModel)
		pad(widths[2] + padding - modelWidth)
		_, _ = bw.WriteString(in.ID)
		pad(widths[3] + padding - utf8.RuneCountInString(in.ID))
		writeTitle(bw, in, all)
		_ = bw.WriteByte('\n')
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write the list: %w", err)
	}
	return nil
}

// writeTitle writes sessionTitle(in, all) without making it when the
// strings it is made of need no cleaning.
func writeTitle(bw *bufio.Writer, in *session.Info, all bool) {
	if in.Problem != "" || all || strings.IndexByte(in.Title, '\t') >= 0 || sanitize.Clean(in.Title) != in.Title {
		_, _ = bw.WriteString(sessionTitle(in, all))
		return
	}
	_, _ = bw.WriteString(in.Title)
}

// writeSessionRows is writeSessionList by rows of strings.
func writeSessionRows(w io.Writer, infos []session.Info, all bool) error {
	rows := make([][sessionColumns + 1]string, 0, len(infos)+1)
	rows = append(rows, sessionHeading)
	for i := range infos {
		rows = append(rows, sessionRow(&infos[i], all))
	}
	return writeSessionTable(w, rows)
}

// special reports a byte tabwriter gives a meaning to.
func special(s string) bool {
	return strings.ContainsAny(s, "\t\n\v\f") || strings.IndexByte(s, tabwriter.Escape) >= 0
}

// specialBytes is special for bytes.
func specialBytes(b []byte) bool {
	for _, c := range b {
		if c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == tabwriter.Escape {
			return true
		}
	}
	return false
}
