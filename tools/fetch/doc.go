// Package fetch is web_fetch's network client: one guarded HTTP GET that
// refuses loopback, private, link-local and metadata addresses at connect
// time (after DNS resolution, on every redirect), and turns the answer into
// text for the model (HTML as Markdown). It is the one package besides
// provider/openai allowed net/http (see cmd/tern/fitness_test.go).
package fetch
