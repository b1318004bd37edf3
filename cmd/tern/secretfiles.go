package main

import "path/filepath"

// ternSecretFiles lists the files of tern's own the read tools must refuse
// when the workspace holds them (a workspace at the home directory holds
// $TERN_HOME): config.toml, which may hold api_key. Both the path and its
// real path (through links) are given, as the tools compare real paths.
func ternSecretFiles(config string) []string {
	if config == "" {
		return nil
	}
	out := []string{filepath.Clean(config)}
	if real, err := filepath.EvalSymlinks(config); err == nil && real != out[0] {
		out = append(out, real)
	} else if dir, err := filepath.EvalSymlinks(filepath.Dir(config)); err == nil {
		out = append(out, filepath.Join(dir, filepath.Base(config)))
	}
	return out
}
