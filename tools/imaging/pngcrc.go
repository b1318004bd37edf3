package imaging

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
)

// pngSignature starts every PNG file.
const pngSignature = "\x89PNG\r\n\x1a\n"

// withPNGChecksums returns a PNG with every chunk's CRC computed afresh.
// Go's decoder refuses a chunk whose CRC is wrong, which browsers and
// gateways let pass: some servers send such files (the MCP reference
// server's own logo is one), and fixing the checksums is all they need.
// Data that is not a whole PNG chunk stream is returned as it is, for the
// decoder to judge; a file whose checksums are right comes back unchanged.
func withPNGChecksums(data []byte) []byte {
	if !bytes.HasPrefix(data, []byte(pngSignature)) {
		return data
	}
	var out []byte
	for i := len(pngSignature); i+12 <= len(data); {
		n := binary.BigEndian.Uint32(data[i:])
		end := i + 8 + int(n)
		if n > uint32(len(data)) || end+4 > len(data) {
			break // a torn chunk: the decoder says so
		}
		want := crc32.ChecksumIEEE(data[i+4 : end])
		if binary.BigEndian.Uint32(data[end:]) != want {
			if out == nil {
				out = bytes.Clone(data)
			}
			binary.BigEndian.PutUint32(out[end:], want)
		}
		i = end + 4
	}
	if out == nil {
		return data
	}
	return out
}
