package openai

import (
	"context"
	"slices"
)

// ListModels returns the ids of the models the gateway offers (GET
// {base}/models), sorted, for `tern doctor` and the model picker. It does
// not retry: its callers want a quick answer and show the error, a
// *provider.Error, as it is.
func (p *Provider) ListModels(ctx context.Context) ([]string, error) {
	rctx, ex := withExchange(ctx, "")
	ex.limit = maxModelList // go-openai decodes the whole body
	list, err := p.client.ListModels(rctx)
	if err != nil {
		return nil, p.classify(ctx, err, ex.header(), "")
	}
	ids := make([]string, 0, len(list.Models))
	for _, m := range list.Models {
		if m.ID != "" {
			ids = append(ids, m.ID)
		}
	}
	slices.Sort(ids)
	return slices.Compact(ids), nil
}
