package session

import (
	"encoding/binary"
	"errors"
	"fmt"
	"time"
	"unsafe"
)

// indexMagic opens an index file; a file without it is not an index.
const indexMagic = "tern session index 2\n"

// errIndexDamaged is what decodeIndex returns for a truncated or
// malformed index; the caller then reads every log again.
var errIndexDamaged = errors.New("the session index is damaged")

// encodeIndex writes ix in the index's own layout: the magic, the number of
// entries, then per entry its fields in a fixed order, strings and times
// prefixed with their length. It is read back in one pass with one copy of
// the file (decodeIndex): gob spent most of a 10,000-session list
// allocating each string on its own.
func encodeIndex(ix index) ([]byte, error) {
	b := make([]byte, 0, 64+len(ix)*256)
	b = append(b, indexMagic...)
	b = binary.AppendUvarint(b, uint64(len(ix)))
	var err error
	for path, e := range ix {
		b = appendString(b, path)
		b = binary.AppendVarint(b, e.Size)
		if b, err = appendTime(b, e.ModTime); err != nil {
			return nil, err
		}
		in := e.Info
		infoPath := in.Path
		if infoPath == path {
			infoPath = "" // the usual case: the key says it
		}
		for _, s := range []string{in.ID, infoPath, in.Workspace, in.Model, in.Parent, in.Title, in.Prompt, in.Problem} {
			b = appendString(b, s)
		}
		if b, err = appendTime(b, in.Created); err != nil {
			return nil, err
		}
		if b, err = appendTime(b, in.Updated); err != nil {
			return nil, err
		}
		b = binary.AppendUvarint(b, uint64(max(in.Messages, 0)))
	}
	return b, nil
}

// appendString appends s with its length before it.
func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// appendTime appends t in time's own binary form (which keeps its zone
// offset, as gob did), with its length before it.
func appendTime(b []byte, t time.Time) ([]byte, error) {
	tb, err := t.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("encode the session index: %w", err)
	}
	b = binary.AppendUvarint(b, uint64(len(tb)))
	return append(b, tb...), nil
}

// decodeIndex reads what encodeIndex wrote. Every string it returns is a
// slice of data itself, so 10,000 entries cost a handful of allocations
// besides the map. data becomes those strings' memory: the caller must
// not change it after.
func decodeIndex(data []byte) (index, error) {
	d := indexDecoder{buf: data, str: unsafe.String(unsafe.SliceData(data), len(data))}
	if len(data) < len(indexMagic) || d.str[:len(indexMagic)] != indexMagic {
		return nil, errIndexDamaged
	}
	d.off = len(indexMagic)
	n := d.uvarint()
	if d.err != nil || n > uint64(len(data)) { // each entry takes bytes: a larger count is damage
		return nil, errIndexDamaged
	}
	ix := make(index, n)
	for range n {
		path := d.string()
		var e indexEntry
		e.Size = d.varint()
		e.ModTime = d.time()
		in := &e.Info
		in.ID, in.Path, in.Workspace, in.Model = d.string(), d.string(), d.string(), d.string()
		in.Parent, in.Title, in.Prompt, in.Problem = d.string(), d.string(), d.string(), d.string()
		in.Created, in.Updated = d.time(), d.time()
		in.Messages = int(d.uvarint())
		if d.err != nil {
			return nil, d.err
		}
		if in.Path == "" {
			in.Path = path
		}
		ix[path] = e
	}
	if d.off != len(data) {
		return nil, errIndexDamaged
	}
	return ix, nil
}

// indexDecoder reads an index's fields from buf (str is the same bytes) at off;
// the first error sticks, and every read after it returns a zero value.
type indexDecoder struct {
	buf []byte
	str string
	off int
	err error
}

// uvarint reads an unsigned varint.
func (d *indexDecoder) uvarint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.buf[d.off:])
	if n <= 0 {
		d.err = errIndexDamaged
		return 0
	}
	d.off += n
	return v
}

// varint reads a signed varint.
func (d *indexDecoder) varint() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.buf[d.off:])
	if n <= 0 {
		d.err = errIndexDamaged
		return 0
	}
	d.off += n
	return v
}

// span reads a length and returns the offsets of the bytes it covers.
func (d *indexDecoder) span() (int, int) {
	n := d.uvarint()
	if d.err != nil {
		return 0, 0
	}
	if n > uint64(len(d.buf)-d.off) {
		d.err = errIndexDamaged
		return 0, 0
	}
	start := d.off
	d.off += int(n)
	return start, d.off
}

// string reads a string, sharing the memory of the decoder's copy.
func (d *indexDecoder) string() string {
	start, end := d.span()
	return d.str[start:end]
}

// time reads a time.
func (d *indexDecoder) time() time.Time {
	start, end := d.span()
	var t time.Time
	if d.err == nil {
		if err := t.UnmarshalBinary(d.buf[start:end]); err != nil {
			d.err = errIndexDamaged
		}
	}
	return t
}
