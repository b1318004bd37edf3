// Package models knows models tern has not been told about: their context
// windows, list prices, reasoning effort levels and image support, from
// Charm's community-kept model database (charm.land/catwalk), embedded in
// the binary. Updating the figures is updating that module's version.
package models
