package tools

import "testing"

// TestIsSecretIgnoresCase checks the secret-file filter matches names
// whatever their case: a case-insensitive file system opens .env for .ENV.
func TestIsSecretIgnoresCase(t *testing.T) {
	t.Parallel()
	w := &Workspace{Secrets: DefaultSecretPatterns}
	custom := &Workspace{Secrets: []string{"*.Secret", "Vault[0-9].TXT"}}
	tests := []struct {
		w    *Workspace
		rel  string
		want bool
	}{
		{w, ".env", true},
		{w, ".ENV", true},
		{w, ".Env", true},
		{w, "config/.eNv", true},
		{w, ".env.LOCAL", true},
		{w, ".ENV.production", true},
		{w, "ID_RSA", true},
		{w, "keys/Id_Rsa.pub", true},
		{w, "ID_ED25519", true},
		{w, "X.PEM", true},
		{w, "server.Key", true},
		{w, ".NETRC", true},
		{w, ".env.example", false},
		{w, ".ENV.Example", false},
		{w, ".env.SAMPLE", false},
		{w, ".Env.Template", false},
		{w, "environment.go", false},
		{w, "README.md", false},
		{w, "keyboard.go", false},
		{custom, "a.SECRET", true},
		{custom, "a.secret", true},
		{custom, "vault3.txt", true},
		{custom, "VAULT3.TXT", true},
		{custom, "vaultx.txt", false},
	}
	for _, tt := range tests {
		if got := tt.w.IsSecret(tt.rel); got != tt.want {
			t.Errorf("IsSecret(%q) with %q = %v, want %v", tt.rel, tt.w.Secrets, got, tt.want)
		}
	}
}
