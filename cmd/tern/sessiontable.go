package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode/utf8"
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
