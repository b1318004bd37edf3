package trust

import "testing"

func TestApprove(t *testing.T) {
	t.Parallel()
	s := Store{Home: t.TempDir(), File: "hooks-approved.json"}
	content := []byte("[[hooks]]\nevent = \"turn_end\"\ncommand = \"true\"\n")
	tests := []struct {
		name    string
		root    string
		content []byte
		want    bool
	}{
		{"approved", "/ws", content, true},
		{"changed", "/ws", append(content, '#'), false},
		{"other workspace", "/other", content, false},
	}
	if s.Approved("/ws", content) {
		t.Fatal("approved before Approve")
	}
	if err := s.Approve("/ws", content); err != nil {
		t.Fatal(err)
	}
	for _, tc := range tests {
		if got := s.Approved(tc.root, tc.content); got != tc.want {
			t.Errorf("%s: Approved = %v, want %v", tc.name, got, tc.want)
		}
	}
	if (Store{File: "x.json"}).Approved("/ws", content) {
		t.Error("approved without a home")
	}
}
