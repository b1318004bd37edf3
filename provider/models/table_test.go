package models

import (
	"reflect"
	"testing"

	"charm.land/catwalk/pkg/embedded"
)

// TestTableLooksUpAsTheJSON looks every model up, under every provider's
// endpoint and under none, in the table and in the database parsed from
// charm.land/catwalk's JSON: the answers must be the same.
func TestTableLooksUpAsTheJSON(t *testing.T) {
	t.Parallel()
	parsed, table := New(embedded.GetAll()), New(embeddedProviders)
	for _, p := range embedded.GetAll() {
		for _, m := range p.Models {
			for _, base := range []string{"", p.APIEndpoint, "http://127.0.0.1:8080/v1"} {
				want, wok := parsed.Lookup(m.ID, base)
				got, gok := table.Lookup(m.ID, base)
				if gok != wok || !reflect.DeepEqual(got, want) {
					t.Fatalf("Lookup(%q, %q) = %+v, %v from the table; %+v, %v from the JSON", m.ID, base, got, gok, want, wok)
				}
			}
		}
	}
}

// TestTableCostsNoParsing bounds what building the embedded database
// allocates: the table is laid out by the linker, so only New's sorted copy
// and a lookup remain (parsing the JSON made 10,700 allocations).
func TestTableCostsNoParsing(t *testing.T) {
	allocs := testing.AllocsPerRun(3, func() {
		if _, ok := New(embeddedProviders).Lookup("gpt-4o-mini", "http://127.0.0.1:8080/v1"); !ok {
			t.Fatal("gpt-4o-mini not found")
		}
	})
	if allocs > 100 {
		t.Errorf("building the database and a lookup made %.0f allocations, want ≤ 100", allocs)
	}
	t.Logf("%.0f allocations", allocs)
}
