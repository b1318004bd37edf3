// Package providertest is a scripted provider.Provider for tests: it replays
// one Script per request and records the requests, keeping the
// provider.Stream contract, so that the tests of every layer share one fake
// instead of each keeping a copy that can drift from the contract. It is
// for tests only; nothing that ships imports it.
package providertest
