package openai

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync/atomic"
)

// doer is the go-openai HTTPDoer tern installs: it adds the configured
// headers, and those of the request's model, to every request and hands the response back to the caller through
// the request's context. go-openai hides responses (headers such as
// Retry-After, and the body of a stream), and this is the one place they pass.
type doer struct {
	client       *http.Client
	headers      map[string]string
	modelHeaders map[string]map[string]string
	// model is the model whose headers go with a request that names none
	// (the model list).
	model string
}

// Do sends req with the extra headers and records the response in the
// exchange attached to req's context, if any.
func (d *doer) Do(req *http.Request) (*http.Response, error) {
	ex, _ := req.Context().Value(exchangeKey{}).(*exchange)
	model := d.model
	if ex != nil && ex.model != "" {
		model = ex.model
	}
	for k, v := range d.headers {
		req.Header.Set(k, v)
	}
	// Looked up per request: the model can change between requests
	// (/model, a resumed session), and its headers go with it.
	for k, v := range d.modelHeaders[model] {
		req.Header.Set(k, v)
	}
	if ex != nil && ex.effortObject != "" {
		if err := withReasoningObject(req, ex.effortObject); err != nil {
			return nil, err
		}
	}
	if ex != nil {
		req = req.WithContext(connTrace(req.Context(), &ex.conn))
	}
	resp, err := d.client.Do(req)
	limitErrorBody(resp)
	if ex != nil {
		if ex.limit > 0 && resp != nil {
			resp.Body = limitedBody{Reader: io.LimitReader(resp.Body, ex.limit), Closer: resp.Body}
		}
		ex.resp = resp
	}
	return resp, err
}

// exchange receives the HTTP response of one go-openai call.
type exchange struct {
	resp *http.Response
	// model is the request's model, which picks its per-model headers;
	// empty means the doer's default.
	model string
	// limit, when positive, ends the body after that many bytes: for a
	// document go-openai reads whole (the model list), never for a stream.
	limit int64
	// effortObject, when set, is the reasoning effort to send as
	// OpenRouter's reasoning object rather than reasoning_effort.
	effortObject string
	// conn is the connection the request went out on, once it has one.
	conn atomic.Pointer[net.Conn]
}

type exchangeKey struct{}

// withExchange returns a context whose requests, for model (empty for the
// default), record their response in a new exchange.
func withExchange(ctx context.Context, model string) (context.Context, *exchange) {
	ex := &exchange{model: model}
	return context.WithValue(ctx, exchangeKey{}, ex), ex
}

// header returns the response headers, or nil when there was no response.
func (ex *exchange) header() http.Header {
	if ex.resp == nil {
		return nil
	}
	return ex.resp.Header
}

// marker returns what can hold small segments of the response's body while
// it streams: the connection it arrives on, when tern dialled it. Over
// HTTP/2 that connection is read by net/http's goroutine, which then reads
// it on the marked connection's clock as the body's reader would.
func (ex *exchange) marker() streamMarker {
	c := ex.conn.Load()
	if ex.resp == nil || c == nil {
		return nil
	}
	return markerOf(*c)
}
