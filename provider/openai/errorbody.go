package openai

import (
	"io"
	"net/http"
)

// maxErrorBody bounds what tern reads of an error response: go-openai
// reads the whole body into memory, and a hostile or broken gateway can
// send an endless one. A real error object fits many times over; the
// message shown is an excerpt anyway.
const maxErrorBody = 1 << 20

// limitErrorBody makes resp's body end after maxErrorBody bytes when the
// status is not a success: past the limit the rest is not read (closing
// the body drops the connection).
func limitErrorBody(resp *http.Response) {
	if resp == nil || resp.StatusCode < http.StatusBadRequest {
		return
	}
	resp.Body = limitedBody{Reader: io.LimitReader(resp.Body, maxErrorBody), Closer: resp.Body}
}

// limitedBody is a body that reads through a limit and closes the original.
type limitedBody struct {
	io.Reader
	io.Closer
}
