package agent

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

// FuzzRepair checks the JSON repair of tool arguments: it never panics,
// whatever it accepts is a JSON object, valid JSON objects come out with the
// same value, and repairing its own output changes nothing.
func FuzzRepair(f *testing.F) {
	for _, s := range []string{
		`{"path":"main.go","offset":10}`,
		"```json\n{\"path\": \"a.go\",}\n```",
		`{"arguments": {"command": "ls"}}`,
		`{"name":"grep","arguments":"{\"pattern\":\"x\"}"}`,
		`{"command": "echo \"hi`,
		`{"a": [1, 2, {"b": "c\\`,
		`"{\"q\": 1}"`,
		`null`,
		`[1,2]`,
		`{"a":1}}`,
		`{"k": "\ud83d\ude00 é \u0000", "n": -1.5e300, "d": {"x": null, "x": true}}`,
	} {
		f.Add(s, false)
	}
	f.Add(`{"content": "cut off here`, true)
	// Declares every parameter, so no wrapper is unwrapped: what comes out
	// must be what went in.
	declaresAll := func(string) bool { return true }
	f.Fuzz(func(t *testing.T, raw string, cutOff bool) {
		out, err := repairArgs(raw, cutOff, nil)
		if err == nil {
			checkObject(t, raw, out)
		} else if err.Error() == "" || strings.Contains(err.Error(), "%!") {
			t.Fatalf("repairArgs(%q) failed with an unreadable error %q", raw, err.Error())
		}

		out, err = repairArgs(raw, cutOff, declaresAll)
		if err != nil {
			if isObject(raw) {
				t.Fatalf("repairArgs(%q) refused a valid JSON object: %v", raw, err)
			}
			return
		}
		checkObject(t, raw, out)
		if isObject(raw) {
			var in, got any
			if json.Unmarshal([]byte(raw), &in) == nil {
				if err := json.Unmarshal(out, &got); err != nil || !reflect.DeepEqual(in, got) {
					t.Fatalf("repairArgs changed a valid object:\n in  %s\n out %s (%v)", raw, out, err)
				}
			}
		}
		again, err := repairArgs(string(out), cutOff, declaresAll)
		if err != nil || string(again) != string(out) {
			t.Fatalf("repairing the repaired %s gave %s, %v", out, again, err)
		}
	})
}

// isObject reports whether s is valid JSON whose value is an object.
func isObject(s string) bool {
	if !json.Valid([]byte(s)) {
		return false
	}
	var m map[string]json.RawMessage
	return json.Unmarshal([]byte(s), &m) == nil && m != nil
}

// checkObject fails unless out is a compact JSON object.
func checkObject(t *testing.T, raw string, out json.RawMessage) {
	t.Helper()
	if !isObject(string(out)) {
		t.Fatalf("repairArgs(%q) = %q, which is not a JSON object", raw, out)
	}
}
