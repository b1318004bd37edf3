package session

import (
	"encoding/binary"
	"errors"
	"strings"
	"time"
	"unsafe"
)

// indexMagic opens an index file; a file without it is not an index.
const indexMagic = "tern session index 3\n"

// errIndexDamaged is what decodeIndex returns for a truncated or
// malformed index; the caller then reads every log again.
var errIndexDamaged = errors.New("the session index is damaged")

// Zone tags of a time in the index.
const (
	zoneZero   = 0 // the zero time
	zoneUTC    = 1
	zoneOffset = 2 // an offset in seconds east of UTC follows
)

// encodeIndex writes ix in the index's own layout: the magic; the sessions
// folder (root) it was written for; the number of folders, then each
// folder's path and stamp; the number of entries, then per entry its
// fields in a fixed order, strings prefixed with their length, numbers as
// varints. An entry's log is named by its full path, so that a list of the
// same root takes each Info.Path from the index as it is (making 10,000
// paths was a tenth of the memory a list touched). It is read back in one
// pass with one copy (or mapping) of the file (decodeIndex).
func encodeIndex(ix index, root string) []byte {
	b := make([]byte, 0, 64+len(ix.folders)*32+len(ix.infos)*(256+len(root)))
	b = append(b, indexMagic...)
	b = appendString(b, root)
	b = binary.AppendUvarint(b, uint64(len(ix.folders)))
	for rel, st := range ix.folders {
		b = appendString(b, rel)
		b = binary.AppendUvarint(b, st.ino)
		b = binary.AppendVarint(b, st.ctime)
		b = binary.AppendVarint(b, st.mtime)
	}
	b = binary.AppendUvarint(b, uint64(len(ix.infos)))
	for i := range ix.infos {
		m := &ix.meta[i]
		b = binary.AppendUvarint(b, uint64(len(root)+1+len(m.rel)))
		b = append(append(append(b, root...), '/'), m.rel...)
		b = binary.AppendVarint(b, m.size)
		b = binary.AppendVarint(b, m.mod)
		flags := uint64(0)
		if m.link {
			flags = 1
		}
		b = binary.AppendUvarint(b, flags)
		in := &ix.infos[i]
		for _, s := range [...]string{in.ID, in.Workspace, in.Model, in.Parent, in.Title, in.Prompt, in.Problem} {
			b = appendString(b, s)
		}
		b = appendTime(b, in.Created)
		b = appendTime(b, in.Updated)
		b = binary.AppendUvarint(b, uint64(max(in.Messages, 0)))
	}
	return b
}

// appendString appends s with its length before it.
func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

// appendTime appends t as a zone tag, then (unless zero) its Unix seconds
// and nanoseconds, and its offset when not UTC. Like time's own binary form
// it keeps the offset, not the zone: a time read back is in Local when
// Local has that offset at that instant, as time.Parse does.
func appendTime(b []byte, t time.Time) []byte {
	switch {
	case t.IsZero():
		return binary.AppendUvarint(b, zoneZero)
	case t.Location() == time.UTC:
		b = binary.AppendUvarint(b, zoneUTC)
	default:
		b = binary.AppendUvarint(b, zoneOffset)
		_, off := t.Zone()
		b = binary.AppendVarint(b, int64(off))
	}
	b = binary.AppendVarint(b, t.Unix())
	return binary.AppendUvarint(b, uint64(t.Nanosecond()))
}

// decodeIndex reads what encodeIndex wrote, for the sessions folder root.
// Every string it returns is a slice of data itself (when the index was
// written for another root, the entries' paths are made again, in one
// allocation), so 10,000 entries cost a handful of allocations. data
// becomes those strings' memory: the caller must not change it after.
func decodeIndex(data []byte, root string) (index, error) {
	d := indexDecoder{buf: data, str: unsafe.String(unsafe.SliceData(data), len(data))}
	if len(data) < len(indexMagic) || d.str[:len(indexMagic)] != indexMagic {
		return index{}, errIndexDamaged
	}
	d.off = len(indexMagic)
	wrote := d.string() // the root it was written for
	nf := d.uvarint()
	if d.err != nil || nf > uint64(len(data)) { // each folder takes bytes: a larger count is damage
		return index{}, errIndexDamaged
	}
	ix := index{folders: make(map[string]folderStamp, nf)}
	for range nf {
		rel := d.string()
		st := folderStamp{ino: d.uvarint(), ctime: d.varint(), mtime: d.varint()}
		if d.err != nil {
			return index{}, d.err
		}
		ix.folders[rel] = st
	}
	n := d.uvarint()
	if d.err != nil || n > uint64(len(data)-d.off) {
		return index{}, errIndexDamaged
	}
	ix.infos, ix.meta = make([]Info, n), make([]entryMeta, n)
	pathBytes := 0
	for i := range ix.infos {
		m, in := &ix.meta[i], &ix.infos[i]
		in.Path = d.string()
		if len(in.Path) <= len(wrote) || in.Path[:len(wrote)] != wrote || in.Path[len(wrote)] != '/' {
			return index{}, errIndexDamaged
		}
		m.rel = in.Path[len(wrote)+1:]
		pathBytes += len(root) + 1 + len(m.rel)
		m.size = d.varint()
		m.mod = d.varint()
		flags := d.uvarint()
		m.link = flags&1 != 0
		in.ID, in.Workspace, in.Model, in.Parent = d.string(), d.string(), d.string(), d.string()
		in.Title, in.Prompt, in.Problem = d.string(), d.string(), d.string()
		in.Created, in.Updated = d.time(), d.time()
		in.Messages = int(d.uvarint())
		if d.err != nil {
			return index{}, d.err
		}
	}
	if d.off != len(data) {
		return index{}, errIndexDamaged
	}
	if wrote == root {
		return ix, nil
	}
	// The home moved: the full paths again, in one string.
	var sb strings.Builder
	sb.Grow(pathBytes)
	for i := range ix.meta {
		sb.WriteString(root)
		sb.WriteByte('/')
		sb.WriteString(ix.meta[i].rel)
	}
	paths, at := sb.String(), 0
	for i := range ix.meta {
		end := at + len(root) + 1 + len(ix.meta[i].rel)
		ix.infos[i].Path = paths[at:end]
		at = end
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
	// zone is the last fixed zone made, reused for times of its offset.
	zone       *time.Location
	zoneOffset int
}

// uvarint reads an unsigned varint.
func (d *indexDecoder) uvarint() uint64 {
	if d.off < len(d.buf) && d.buf[d.off] < 0x80 && d.err == nil { // one byte: most lengths and counts
		v := d.buf[d.off]
		d.off++
		return uint64(v)
	}
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

// string reads a string, sharing the memory of the decoder's copy.
func (d *indexDecoder) string() string {
	n := d.uvarint()
	if d.err != nil {
		return ""
	}
	if n > uint64(len(d.buf)-d.off) {
		d.err = errIndexDamaged
		return ""
	}
	start := d.off
	d.off += int(n)
	return d.str[start:d.off]
}

// time reads what appendTime wrote.
func (d *indexDecoder) time() time.Time {
	tag := d.uvarint()
	var off int64
	switch tag {
	case zoneZero:
		return time.Time{}
	case zoneUTC:
	case zoneOffset:
		off = d.varint()
	default:
		d.err = errIndexDamaged
	}
	sec, nsec := d.varint(), d.uvarint()
	if d.err != nil || nsec >= 1e9 || off <= -1<<31 || off >= 1<<31 {
		if d.err == nil {
			d.err = errIndexDamaged
		}
		return time.Time{}
	}
	t := time.Unix(sec, int64(nsec)) // in Local
	if tag == zoneUTC {
		return t.UTC()
	}
	if _, local := t.Zone(); int64(local) == off {
		return t
	}
	if d.zone == nil || int64(d.zoneOffset) != off {
		d.zone, d.zoneOffset = time.FixedZone("", int(off)), int(off)
	}
	return t.In(d.zone)
}
