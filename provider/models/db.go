package models

import (
	"cmp"
	"net/url"
	"slices"
	"strings"
	"sync"

	"charm.land/catwalk/pkg/catwalk"
)

// DB is a model database: providers in the order ids are looked up in.
// It is read-only once built and safe for concurrent use.
type DB struct {
	providers []catwalk.Provider
}

// embeddedDB orders the embedded database once, on first use.
var embeddedDB = sync.OnceValue(func() *DB { return New(embeddedProviders) })

// Embedded is the database compiled into tern (no network).
func Embedded() *DB { return embeddedDB() }

// firstParty are the providers whose ids and prices are a model's own,
// preferred, in this order, when a gateway is not one of the database's.
var firstParty = []string{"openai", "anthropic", "gemini", "xai", "deepseek", "moonshot", "zai"}

// New builds a database from providers. First-party providers come first,
// then other providers whose model ids carry no vendor prefix, then the
// aggregators (openrouter, vercel, ...), each group by id.
func New(providers []catwalk.Provider) *DB {
	ps := slices.Clone(providers)
	rank := func(p catwalk.Provider) int {
		if i := slices.Index(firstParty, string(p.ID)); i >= 0 {
			return i
		}
		if slices.ContainsFunc(p.Models, func(m catwalk.Model) bool { return strings.Contains(m.ID, "/") }) {
			return len(firstParty) + 1
		}
		return len(firstParty)
	}
	slices.SortStableFunc(ps, func(a, b catwalk.Provider) int {
		return cmp.Or(cmp.Compare(rank(a), rank(b)), cmp.Compare(a.ID, b.ID))
	})
	return &DB{providers: ps}
}

// Lookup finds model id for a gateway at baseURL ("" when unknown): the
// exact id (under the gateway's own provider first), then the id without
// its gateway prefix (openai/gpt-4o-mini, openrouter/...), then the same
// model under another provider's id. ok is false for an unknown model.
func (db *DB) Lookup(id, baseURL string) (info Info, ok bool) {
	id = strings.TrimSpace(id)
	if db == nil || id == "" {
		return Info{}, false
	}
	order := db.order(db.gateway(baseURL))
	if p, m, ok := find(order, func(m catwalk.Model) bool { return m.ID == id }); ok {
		return infoOf(p, m, MatchExact), true
	}
	// Strip one prefix at a time: openrouter/openai/gpt-4o is openai/gpt-4o
	// on OpenRouter, then gpt-4o at OpenAI.
	for rest := id; strings.Contains(rest, "/"); {
		var prefix string
		prefix, rest, _ = strings.Cut(rest, "/")
		if p, m, ok := find(db.order(prefix), func(m catwalk.Model) bool { return m.ID == rest }); ok {
			return infoOf(p, m, MatchUnprefixed), true
		}
	}
	base := id[strings.LastIndex(id, "/")+1:]
	same := func(m catwalk.Model) bool { return strings.EqualFold(m.ID[strings.LastIndex(m.ID, "/")+1:], base) }
	if p, m, ok := find(order, same); ok {
		return infoOf(p, m, MatchOtherProvider), true
	}
	return Info{}, false
}

// order is the providers with the one named first first.
func (db *DB) order(first string) []catwalk.Provider {
	i := slices.IndexFunc(db.providers, func(p catwalk.Provider) bool { return string(p.ID) == first })
	if i < 0 {
		return db.providers
	}
	out := make([]catwalk.Provider, 0, len(db.providers))
	out = append(out, db.providers[i])
	out = append(out, db.providers[:i]...)
	return append(out, db.providers[i+1:]...)
}

// officialHosts are the hosts of providers whose endpoint the database
// leaves to an environment variable.
var officialHosts = map[string]string{
	"api.openai.com":                    "openai",
	"api.anthropic.com":                 "anthropic",
	"generativelanguage.googleapis.com": "gemini",
}

// gateway is the id of the database provider serving baseURL; "" when
// none does.
func (db *DB) gateway(baseURL string) string {
	u, err := url.Parse(baseURL)
	if err != nil || u.Hostname() == "" {
		return ""
	}
	host := strings.ToLower(u.Hostname())
	if id, ok := officialHosts[host]; ok {
		return id
	}
	for _, p := range db.providers {
		if e, err := url.Parse(p.APIEndpoint); err == nil && strings.EqualFold(e.Hostname(), host) {
			return string(p.ID)
		}
	}
	return ""
}

// find is the first model, in providers' order, that match accepts and
// whose window is listed.
func find(providers []catwalk.Provider, match func(catwalk.Model) bool) (catwalk.Provider, catwalk.Model, bool) {
	for _, p := range providers {
		for _, m := range p.Models {
			if m.ContextWindow > 0 && match(m) {
				return p, m, true
			}
		}
	}
	return catwalk.Provider{}, catwalk.Model{}, false
}

// infoOf converts the database's model.
func infoOf(p catwalk.Provider, m catwalk.Model, match Match) Info {
	return Info{
		ID: m.ID, Provider: string(p.ID), Match: match,
		ContextWindow: int(m.ContextWindow), MaxTokens: int(m.DefaultMaxTokens),
		Prices:  Prices{Input: m.CostPer1MIn, CachedInput: cacheRead(m), Output: m.CostPer1MOut},
		Reasons: m.CanReason, EffortLevels: slices.Clone(m.ReasoningLevels), DefaultEffort: m.DefaultReasoningEffort,
		Images: m.SupportsImages,
	}
}

// cacheRead is the price of a cached prompt token. The database keeps the
// cache read price in cost_per_1m_out_cached and the cache write price in
// cost_per_1m_in_cached, but some entries put the read price in the
// latter: a price below the input price there is a read price.
func cacheRead(m catwalk.Model) float64 {
	switch {
	case m.CostPer1MOutCached > 0:
		return m.CostPer1MOutCached
	case m.CostPer1MInCached > 0 && m.CostPer1MInCached < m.CostPer1MIn:
		return m.CostPer1MInCached
	}
	return 0
}

// Images says whether model id accepts image input, for a gateway at
// baseURL; known is false when the database does not know the model.
func (db *DB) Images(id, baseURL string) (images, known bool) {
	info, ok := db.Lookup(id, baseURL)
	return info.Images, ok
}
