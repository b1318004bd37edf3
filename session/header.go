package session

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"time"

	"github.com/ternhq/tern/provider"
)

// Version is the log format version this package writes and the newest it
// reads.
const Version = 1

// Header is the first line of a session: what shaped the session when it
// started.
type Header struct {
	// Version is the format version; Create sets it.
	Version int `json:"version"`
	// ID identifies the session; Create makes a random one when empty.
	ID          string `json:"id"`
	TernVersion string `json:"tern_version"`
	// Created is when the session started; Create uses the clock when zero.
	Created time.Time `json:"created"`
	// Workspace is the absolute workspace root.
	Workspace string `json:"workspace"`
	// GitHead is the commit checked out at start, if the workspace is a
	// git repository.
	GitHead string `json:"git_head,omitempty"`
	Model   string `json:"model"`
	// GatewayHost is the bare host[:port] of the gateway (see HostOf). Never
	// a URL with credentials, never a key.
	GatewayHost    string `json:"gateway_host,omitempty"`
	ApprovalPolicy string `json:"approval_policy"`
	SystemPrompt   string `json:"system_prompt"`
	// ToolsHash identifies the tool specs offered to the model (see ToolsHash).
	ToolsHash string `json:"tools_hash"`
	// Parent is the id of the session this one was forked from.
	Parent string `json:"parent,omitempty"`
}

// headerType is the "type" of the first line; it is not a record Type.
const headerType = "header"

// headerLine is the header as written: the type first, then the fields.
type headerLine struct {
	Type string `json:"type"`
	Header
}

// HostOf returns the host[:port] of a gateway base URL, without scheme,
// credentials, path or query, for Header.GatewayHost. It returns "" for a URL
// it cannot parse.
func HostOf(baseURL string) string {
	u, err := url.Parse(baseURL)
	if err != nil {
		return ""
	}
	return u.Host
}

// ToolsHash identifies a list of tool specs (names, descriptions, schemas, in
// order) so a resumed session can tell whether the tools changed. Whitespace
// in the schemas does not count.
func ToolsHash(specs []provider.ToolSpec) string {
	h := sha256.New()
	enc := json.NewEncoder(h)
	enc.SetEscapeHTML(false)
	for _, s := range specs {
		params := s.Parameters
		var compact bytes.Buffer
		if err := json.Compact(&compact, params); err == nil {
			params = compact.Bytes()
		}
		// Writing to a hash cannot fail; the strings are always encodable.
		_ = enc.Encode([]string{s.Name, s.Description, string(params)})
	}
	return hex.EncodeToString(h.Sum(nil))
}

// newID returns a random session id: 16 lowercase hex digits.
func newID() string {
	var b [8]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (it crashes instead)
	return hex.EncodeToString(b[:])
}

// prepare fills and checks a header before it is written.
func (h *Header) prepare(now time.Time) error {
	h.Version = Version
	if h.ID == "" {
		h.ID = newID()
	}
	if err := checkID(h.ID); err != nil {
		return err
	}
	if h.Created.IsZero() {
		h.Created = now
	}
	h.Created = h.Created.Round(0).Truncate(time.Millisecond)
	// Do not echo the value: it may be exactly the secret we refuse to write.
	if strings.ContainsAny(h.GatewayHost, "/@?#=& \t\r\n") {
		return errors.New("session header: gateway host is not a bare host[:port]; pass session.HostOf(baseURL) so no key, credential or path is written")
	}
	return nil
}

// checkID accepts ids that are safe in a file name.
func checkID(id string) error {
	if id == "" || len(id) > 64 {
		return fmt.Errorf("session id %q: want 1 to 64 characters", id)
	}
	for _, c := range id {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
		if !ok {
			return fmt.Errorf("session id %q: only letters, digits, '-' and '_' are allowed", id)
		}
	}
	return nil
}
