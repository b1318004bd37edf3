package acp

import (
	"context"
	"errors"
	"sync/atomic"

	sdk "github.com/coder/acp-go-sdk"

	"github.com/ternhq/tern/tools"
)

// clientFiles delegates the file tools' reads and writes to the editor
// (fs/read_text_file, fs/write_text_file), for a client that advertises
// them; the tools make every check before they call it.
type clientFiles struct {
	conn        *sdk.AgentSideConnection
	read, write bool
	// id is the session's id, known once the session exists.
	id atomic.Pointer[sdk.SessionId]
}

var _ tools.EditorFiles = (*clientFiles)(nil)

// newClientFiles returns the delegation the client's capabilities allow;
// nil when they allow none.
func newClientFiles(conn *sdk.AgentSideConnection, caps sdk.FileSystemCapabilities) *clientFiles {
	if !caps.ReadTextFile && !caps.WriteTextFile {
		return nil
	}
	return &clientFiles{conn: conn, read: caps.ReadTextFile, write: caps.WriteTextFile}
}

var errNoSession = errors.New("the session is not open yet")

// ReadText reads the editor's buffer of abs.
func (c *clientFiles) ReadText(ctx context.Context, abs string) (string, error) {
	id := c.id.Load()
	if !c.read || id == nil {
		return "", tools.ErrNotDelegated
	}
	resp, err := c.conn.ReadTextFile(ctx, sdk.ReadTextFileRequest{SessionId: *id, Path: abs})
	if err != nil {
		return "", err
	}
	return resp.Content, nil
}

// WriteText writes abs through the editor.
func (c *clientFiles) WriteText(ctx context.Context, abs, content string) error {
	id := c.id.Load()
	if !c.write {
		return tools.ErrNotDelegated
	}
	if id == nil {
		return errNoSession
	}
	_, err := c.conn.WriteTextFile(ctx, sdk.WriteTextFileRequest{SessionId: *id, Path: abs, Content: content})
	return err
}

// setSession names the session the requests are for.
func (c *clientFiles) setSession(id sdk.SessionId) {
	if c != nil {
		c.id.Store(&id)
	}
}
