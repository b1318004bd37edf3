package openai

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"
	"unicode/utf8"

	goopenai "github.com/sashabaranov/go-openai"

	"github.com/ternhq/tern/provider"
)

// maxExcerpt bounds the gateway text quoted in an error message.
const maxExcerpt = 300

// failure describes a gateway's answer to classify: the HTTP status (0 for an
// error object inside a 200 stream), the error code and type when the body
// had them, and the gateway's message.
type failure struct {
	status  int
	code    string
	typ     string
	message string
}

// classify turns the failure of a go-openai call or of reading a stream into
// a provider.Error. hdr holds the response headers when there was a
// response, for Retry-After. model is the model id of a completion, or ""
// when listing models.
func (p *Provider) classify(ctx context.Context, err error, hdr http.Header, model string) *provider.Error {
	if pe, ok := errors.AsType[*provider.Error](err); ok {
		return pe
	}
	if errors.Is(err, context.Canceled) || errors.Is(ctx.Err(), context.Canceled) {
		return &provider.Error{Kind: provider.ErrCancelled, Message: "the request was cancelled", Err: err}
	}
	// Before *APIError: a RequestError may wrap an empty one.
	if reqErr, ok := errors.AsType[*goopenai.RequestError](err); ok {
		f := bodyFailure(reqErr.Body)
		f.status = reqErr.HTTPStatusCode
		return p.fromFailure(f, hdr, model, err)
	}
	if apiErr, ok := errors.AsType[*goopenai.APIError](err); ok {
		f := failure{status: apiErr.HTTPStatusCode, typ: apiErr.Type, message: apiErr.Message}
		if apiErr.Code != nil {
			f.code = fmt.Sprint(apiErr.Code)
		}
		return p.fromFailure(f, hdr, model, err)
	}
	if errors.Is(err, goopenai.ErrChatCompletionInvalidModel) {
		return &provider.Error{
			Kind:    provider.ErrBadRequest,
			Message: fmt.Sprintf("go-openai refuses model %q for chat completions; choose a chat model (`tern doctor` lists them)", model),
			Err:     err,
		}
	}
	if _, ok := errors.AsType[*json.SyntaxError](err); ok {
		return &provider.Error{
			Kind: provider.ErrProtocol,
			Message: fmt.Sprintf("the gateway at %s answered with something that is not JSON; check the base URL (it usually ends in /v1)",
				p.cfg.BaseURL),
			Err: err,
		}
	}
	return p.networkError(err)
}

// networkError describes a failure to reach the gateway or to keep talking
// to it.
func (p *Provider) networkError(err error) *provider.Error {
	e := &provider.Error{Kind: provider.ErrNetwork, Err: err}
	base := p.cfg.BaseURL
	var netErr net.Error
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		e.Message = fmt.Sprintf("nothing is listening at %s (connection refused); start the server or fix LLM_BASE_URL", base)
	case isDNS(err):
		e.Message = fmt.Sprintf("cannot resolve the host of %s; check LLM_BASE_URL and your network", base)
	case strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"):
		// net/http reports this with a plain error value.
		e.Message = fmt.Sprintf("the gateway at %s speaks plain HTTP; use an http:// base URL", base)
	case isTLS(err):
		e.Message = fmt.Sprintf("TLS with %s failed (%v); check that the URL's scheme (http or https) is right and the certificate is trusted",
			base, rootCause(err))
	case errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()):
		e.Message = fmt.Sprintf("the gateway at %s did not answer in time; try again, or check it with `tern doctor`", base)
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE):
		e.Message = fmt.Sprintf("the connection to %s was closed before the answer finished; try again", base)
	default:
		e.Message = fmt.Sprintf("the request to %s failed: %v", base, rootCause(err))
	}
	return e
}

func isDNS(err error) bool {
	_, ok := errors.AsType[*net.DNSError](err)
	return ok
}

func isTLS(err error) bool {
	if _, ok := errors.AsType[*tls.CertificateVerificationError](err); ok {
		return true
	}
	if _, ok := errors.AsType[tls.RecordHeaderError](err); ok {
		return true
	}
	if _, ok := errors.AsType[x509.UnknownAuthorityError](err); ok {
		return true
	}
	if _, ok := errors.AsType[x509.HostnameError](err); ok {
		return true
	}
	_, ok := errors.AsType[x509.CertificateInvalidError](err)
	return ok
}

// rootCause strips the *url.Error and *net.OpError layers, whose text repeats
// the method and URL.
func rootCause(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}

// fromFailure builds the error for a gateway's answer.
func (p *Provider) fromFailure(f failure, hdr http.Header, model string, cause error) *provider.Error {
	e := &provider.Error{Kind: failureKind(f), Status: f.status, RetryAfter: retryAfter(hdr, time.Now()), Err: cause}
	said := excerpt(f.message)
	if said == "" {
		said = "no details given"
	}
	base := p.cfg.BaseURL
	switch e.Kind {
	case provider.ErrAuth:
		if f.code == "insufficient_quota" {
			e.Message = fmt.Sprintf("the account behind LLM_API_KEY has no quota left (%s); check its billing, or set LLM_API_KEY to another key", said)
		} else {
			e.Message = fmt.Sprintf("the gateway at %s rejected the API key (%s); set LLM_API_KEY to a valid key and run `tern doctor`", base, said)
		}
	case provider.ErrRateLimited:
		e.Message = fmt.Sprintf("the gateway is rate-limiting requests (%s)", said)
		if e.RetryAfter > 0 {
			e.Message += fmt.Sprintf("; it asks to wait %s", e.RetryAfter.Round(time.Second))
		}
	case provider.ErrServer:
		e.Message = fmt.Sprintf("the gateway failed or is overloaded (%s); try again in a moment", said)
	case provider.ErrContextTooLong:
		e.Message = fmt.Sprintf("the conversation no longer fits the model's context window (%s); start a new conversation or shorten this one", said)
	case provider.ErrBadRequest:
		e.Message = fmt.Sprintf("the gateway rejected the request (%s)", said)
	case provider.ErrModelNotFound:
		if model == "" {
			// Listing models: a 404 means there is no list at this URL.
			e.Kind = provider.ErrBadRequest
			e.Message = fmt.Sprintf("the gateway has no model list at %s/models (%s); check the base URL (it usually ends in /v1)",
				strings.TrimRight(base, "/"), said)
		} else {
			e.Message = fmt.Sprintf("model %q was not found at %s (%s); run `tern doctor` to list the gateway's models, then set LLM_MODEL or --model "+
				"(if the id is right, check the base URL: it usually ends in /v1)", model, base, said)
		}
	case provider.ErrNetwork:
		e.Message = fmt.Sprintf("the gateway timed out (%s); try again", said)
	case provider.ErrProtocol, provider.ErrCancelled:
		// failureKind never returns these; a gateway's answer is neither.
		e.Message = said
	}
	return e
}

// failureKind maps a gateway's answer onto the closed set of kinds.
func failureKind(f failure) provider.ErrorKind {
	code := strings.ToLower(f.code)
	typ := strings.ToLower(f.typ)
	switch {
	case code == "insufficient_quota", f.status == http.StatusUnauthorized, f.status == http.StatusForbidden:
		return provider.ErrAuth
	case contextTooLong(code, f.message), f.status == http.StatusRequestEntityTooLarge:
		// Before the status checks: some servers report an overflow as 500.
		return provider.ErrContextTooLong
	case f.status == http.StatusTooManyRequests:
		return provider.ErrRateLimited
	case f.status == http.StatusNotFound, code == "model_not_found":
		return provider.ErrModelNotFound
	case f.status == http.StatusRequestTimeout:
		return provider.ErrNetwork
	case f.status >= 500:
		return provider.ErrServer
	case f.status >= 400:
		return provider.ErrBadRequest
	}
	// An error object inside a 200 stream: go by its code and type.
	switch {
	case strings.Contains(code, "rate_limit"), strings.Contains(typ, "rate_limit"):
		return provider.ErrRateLimited
	case code == "invalid_api_key", strings.Contains(typ, "authentication"), strings.Contains(typ, "permission"):
		return provider.ErrAuth
	case strings.Contains(typ, "not_found"):
		return provider.ErrModelNotFound
	case typ == "invalid_request_error", code == "invalid_request_error":
		return provider.ErrBadRequest
	}
	// Anything else that breaks a stream is the gateway's failure.
	return provider.ErrServer
}

// contextPhrases are how gateways say the prompt does not fit.
var contextPhrases = []string{
	"context_length_exceeded",
	"maximum context length",
	"context length",
	"context window",
	"context size",
	"prompt is too long",
	"too many tokens",
	"reduce the length of the messages",
}

func contextTooLong(code, message string) bool {
	if code == "context_length_exceeded" || code == "string_above_max_length" {
		return true
	}
	m := strings.ToLower(message)
	for _, p := range contextPhrases {
		if strings.Contains(m, p) {
			return true
		}
	}
	return false
}

// bodyFailure extracts what it can from an error body go-openai could not
// read as {"error": {...}}: {"error": "text"}, {"message": ...},
// {"detail": ...}, or plain text.
func bodyFailure(body []byte) failure {
	var shape struct {
		Error   json.RawMessage `json:"error"`
		Message json.RawMessage `json:"message"`
		Detail  json.RawMessage `json:"detail"`
		Code    json.RawMessage `json:"code"`
	}
	if json.Unmarshal(body, &shape) == nil {
		f := failure{code: jsonText(shape.Code)}
		for _, m := range []json.RawMessage{shape.Error, shape.Message, shape.Detail} {
			if t := jsonText(m); t != "" {
				f.message = t
				return f
			}
		}
	}
	return failure{message: string(body)}
}

// jsonText gives a JSON string's content, or the raw text of another value.
func jsonText(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	if string(raw) == "null" {
		return ""
	}
	return string(raw)
}

// excerpt shortens gateway text for an error message: whitespace collapsed,
// at most maxExcerpt bytes, cut on a rune boundary.
func excerpt(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= maxExcerpt {
		return s
	}
	cut := maxExcerpt
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}

// maxRetryAfterParsed keeps absurd Retry-After values from overflowing.
const maxRetryAfterParsed = 24 * time.Hour

// retryAfter reads the wait a gateway asked for: Retry-After in seconds or
// as an HTTP date, or the retry-after-ms some gateways add. 0 means none.
func retryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if v := strings.TrimSpace(h.Get("Retry-After-Ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return clampSeconds(ms / 1000)
		}
	}
	v := strings.TrimSpace(h.Get("Retry-After"))
	if v == "" {
		return 0
	}
	if secs, err := strconv.ParseFloat(v, 64); err == nil {
		if secs > 0 {
			return clampSeconds(secs)
		}
		return 0
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return min(t.Sub(now), maxRetryAfterParsed)
	}
	return 0
}

// clampSeconds converts a positive number of seconds, capped before the
// conversion so that a huge value cannot overflow.
func clampSeconds(secs float64) time.Duration {
	return time.Duration(min(secs, maxRetryAfterParsed.Seconds()) * float64(time.Second))
}
