package openai

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/ternhq/tern/provider"
)

// maxModelList bounds the model list read; OpenRouter's is about 1 MiB.
const maxModelList = 16 << 20

// ModelInfo is what a gateway's model list says about one model.
type ModelInfo struct {
	ID string
	// ContextWindow is the model's context size in tokens when the list
	// reports it, else 0.
	ContextWindow int
	// Images says whether the model takes image input, when the list says
	// (modelimages.go); nil when it does not.
	Images *bool
}

// windowFields are the fields OpenAI-compatible gateways put the context
// size in: context_length (OpenRouter, LM Studio, many proxies),
// max_model_len (vLLM), context_window (Groq and others),
// max_context_length (LM Studio's native list). OpenRouter also nests it in
// top_provider.
var windowFields = []string{"context_length", "max_model_len", "context_window", "max_context_length"}

// ListModelInfo returns the gateway's models (GET {base}/models), sorted by
// id, with the context window of those whose entry reports one. Like
// ListModels it does not retry; its error is a *provider.Error.
func (p *Provider) ListModelInfo(ctx context.Context) ([]ModelInfo, error) {
	url := strings.TrimRight(p.cfg.BaseURL, "/") + "/models"
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, p.networkError(err)
	}
	if p.cfg.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+p.cfg.APIKey)
	}
	resp, err := p.doer.Do(req)
	if err != nil {
		return nil, p.classify(ctx, err, nil, "")
	}
	defer func() { _ = resp.Body.Close() }() // read fully below; a close error changes nothing
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxModelList))
	if err != nil {
		return nil, p.classify(ctx, err, resp.Header, "")
	}
	if resp.StatusCode/100 != 2 {
		f := bodyFailure(body)
		f.status = resp.StatusCode
		return nil, p.fromFailure(f, resp.Header, "", nil)
	}
	list, err := parseModelInfo(body)
	if err != nil {
		return nil, &provider.Error{
			Kind:    provider.ErrProtocol,
			Message: fmt.Sprintf("the gateway at %s sent a model list tern cannot read (%v); check the base URL (it usually ends in /v1)", p.cfg.BaseURL, err),
			Err:     err,
		}
	}
	return list, nil
}

// ContextWindow returns the context size the gateway's model list reports
// for model id, or 0 when the list does not have it.
func (p *Provider) ContextWindow(ctx context.Context, id string) (int, error) {
	m, err := p.Model(ctx, id)
	return m.ContextWindow, err
}

// Model returns what the gateway's model list says of model id: its
// window and image support; the zero ModelInfo when the list does not
// have it.
func (p *Provider) Model(ctx context.Context, id string) (ModelInfo, error) {
	list, err := p.ListModelInfo(ctx)
	if err != nil {
		return ModelInfo{}, err
	}
	for _, m := range list {
		if m.ID == id {
			return m, nil
		}
	}
	return ModelInfo{}, nil
}

// parseModelInfo reads a {"data": [...]} model list.
func parseModelInfo(body []byte) ([]ModelInfo, error) {
	var list struct {
		Data []map[string]json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		return nil, fmt.Errorf("not JSON of the form {\"data\": [...]}: %w", err)
	}
	out := make([]ModelInfo, 0, len(list.Data))
	for _, e := range list.Data {
		var id string
		if json.Unmarshal(e["id"], &id) != nil || id == "" {
			continue
		}
		out = append(out, ModelInfo{ID: id, ContextWindow: entryWindow(e), Images: entryImages(e)})
	}
	slices.SortFunc(out, func(a, b ModelInfo) int { return strings.Compare(a.ID, b.ID) })
	return slices.CompactFunc(out, func(a, b ModelInfo) bool { return a.ID == b.ID }), nil
}

// entryWindow finds the context size in one model entry, 0 when none.
func entryWindow(e map[string]json.RawMessage) int {
	for _, f := range windowFields {
		if n := positiveInt(e[f]); n > 0 {
			return n
		}
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(e["top_provider"], &top) == nil {
		return positiveInt(top["context_length"])
	}
	return 0
}

// positiveInt reads a JSON number or numeric string; 0 for anything else.
func positiveInt(raw json.RawMessage) int {
	if len(raw) == 0 {
		return 0
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		raw = json.RawMessage(s)
	}
	f, err := strconv.ParseFloat(strings.TrimSpace(string(raw)), 64)
	if err != nil || f < 1 || f > 1<<40 {
		return 0
	}
	return int(f)
}
