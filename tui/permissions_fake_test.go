package tui

import "github.com/ternhq/tern/agent"

func (f *fakeBackend) Permissions() agent.Permissions {
	f.mu.Lock()
	defer f.mu.Unlock()
	p := f.perms
	p.Policy = f.policy
	p.Grants = append([]agent.Grant(nil), f.perms.Grants...)
	return p
}

func (f *fakeBackend) Revoke(key string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i, g := range f.perms.Grants {
		if g.Key == key {
			f.perms.Grants = append(f.perms.Grants[:i:i], f.perms.Grants[i+1:]...)
			return true
		}
	}
	return false
}
