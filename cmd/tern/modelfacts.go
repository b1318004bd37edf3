package main

import (
	"sync"

	"github.com/ternhq/tern/cmd/tern/config"
	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/provider/models"
	"github.com/ternhq/tern/tui"
)

// modelInfo looks models up in the embedded model database for the
// configured gateway; nil offline, where the scripted provider costs
// nothing and has no window to speak of. Each model is looked up once: a
// short run asks for its model's facts several times (window, prices,
// images, effort), and a model the database lacks is a search of all its
// models, 70 us each time.
func modelInfo(cfg *config.Config, offline bool) func(string) (models.Info, bool) {
	if offline {
		return nil
	}
	db, baseURL := models.Embedded(), cfg.BaseURL.V
	var (
		mu    sync.Mutex
		found = map[string]modelFacts{}
	)
	return func(model string) (models.Info, bool) {
		mu.Lock()
		defer mu.Unlock()
		f, ok := found[model]
		if !ok {
			f.info, f.ok = db.Lookup(model, baseURL)
			found[model] = f
		}
		return f.info, f.ok
	}
}

// modelFacts is what the database said of one model.
type modelFacts struct {
	info models.Info
	ok   bool
}

// startPrices are the session model's prices and where they came from;
// nil when neither config.toml nor the database has any.
func startPrices(sess *app.Session) (*tui.Prices, app.PriceSource) {
	p, source := sess.Prices(sess.Model())
	if source == app.PricesNone {
		return nil, source
	}
	return &p, source
}
