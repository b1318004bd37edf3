package main

import (
	"github.com/ternhq/tern/cmd/tern/config"
	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/provider/models"
	"github.com/ternhq/tern/tui"
)

// modelInfo looks models up in the embedded model database for the
// configured gateway; nil offline, where the scripted provider costs
// nothing and has no window to speak of.
func modelInfo(cfg *config.Config, offline bool) func(string) (models.Info, bool) {
	if offline {
		return nil
	}
	db, baseURL := models.Embedded(), cfg.BaseURL.V
	return func(model string) (models.Info, bool) { return db.Lookup(model, baseURL) }
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
