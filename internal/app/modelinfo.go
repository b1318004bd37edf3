package app

import (
	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider/models"
)

// PriceSource says where a model's prices came from.
type PriceSource int

// Where prices come from; the zero value is none known.
const (
	// PricesNone: neither config.toml nor the database prices the model.
	PricesNone PriceSource = iota
	// PricesConfigured are config.toml's price_input, price_cached_input
	// and price_output.
	PricesConfigured
	// PricesList are the model database's list prices.
	PricesList
)

// String says where the prices came from, for /cost and tern doctor.
func (s PriceSource) String() string {
	switch s {
	case PricesNone:
		return "none"
	case PricesConfigured:
		return "configured (config.toml)"
	case PricesList:
		return "list prices (the model database)"
	}
	return "unknown"
}

// ModelInfo is what the model database knows of model.
func (s *Session) ModelInfo(model string) (models.Info, bool) {
	if s.modelInfo == nil {
		return models.Info{}, false
	}
	return s.modelInfo(model)
}

// Prices are model's configured prices, else its list prices.
func (s *Session) Prices(model string) (agent.Prices, PriceSource) {
	if s.prices != nil {
		if p := s.prices(model); p != nil {
			return *p, PricesConfigured
		}
	}
	if info, ok := s.ModelInfo(model); ok && info.Prices.Priced() {
		lp := info.Prices
		return agent.Prices{Input: lp.Input, CachedInput: lp.CachedInput, Output: lp.Output}, PricesList
	}
	return agent.Prices{}, PricesNone
}

// databaseWindow is the database's window of model; 0 when unknown.
func (s *Session) databaseWindow(model string) int {
	info, ok := s.ModelInfo(model)
	if !ok {
		return 0
	}
	return info.ContextWindow
}

// AcceptsImages says whether model takes image input, and what says so:
// config.toml's vision, else the gateway's model list, else the model
// database; a model none knows is assumed to (the gateway refuses
// otherwise, and its error says how to stop sending images).
func (s *Session) AcceptsImages(model string) (bool, string) {
	if s.vision != nil {
		if v := s.vision(model); v != nil {
			return *v, "vision in config.toml"
		}
	}
	if v := s.window.images(model); v != nil {
		return *v, "the gateway's model list"
	}
	if info, ok := s.ModelInfo(model); ok {
		return info.Images, "the model database"
	}
	return true, "unknown; assumed"
}
