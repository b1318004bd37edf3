package config

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// StateFile is the file in TERN_HOME where tern remembers choices made in
// the interface (the model picked with /model), so that the user's
// config.toml is never rewritten.
const StateFile = "state.json"

// state is what StateFile holds.
type state struct {
	// Model is the model last picked with /model.
	Model string `json:"model,omitempty"`
	// ConfigModel is config.toml's model (empty: none) when Model was
	// picked: once config.toml names another, the file is the newer choice
	// and wins.
	ConfigModel string `json:"config_model,omitempty"`
}

// readState loads path; a missing file is an empty state.
func readState(path string) (state, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return state{}, nil
	}
	if err != nil {
		return state{}, fmt.Errorf("read %s: %w", path, err)
	}
	var st state
	if err := json.Unmarshal(data, &st); err != nil {
		return state{}, fmt.Errorf("%s is not valid JSON (%w); delete it to forget the model picked with /model", path, err)
	}
	return st, nil
}

// RememberModel makes id the model of new sessions: it is written to
// TERN_HOME/state.json, which Load reads below flags and environment
// variables and above config.toml, until config.toml's model changes.
func (c *Config) RememberModel(id string) error {
	if c.Home.V == "" {
		return errors.New("neither TERN_HOME nor HOME is set, so there is nowhere to remember it")
	}
	data, err := json.MarshalIndent(state{Model: id, ConfigModel: c.fileModel}, "", "  ")
	if err != nil {
		return fmt.Errorf("encode the remembered model: %w", err)
	}
	path := filepath.Join(c.Home.V, StateFile)
	if err := os.MkdirAll(c.Home.V, 0o700); err != nil {
		return fmt.Errorf("remember the model: %w", err)
	}
	// Written aside and renamed, so that a crash leaves the old state or
	// the new one, never half a file.
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, append(data, '\n'), 0o600); err != nil {
		return fmt.Errorf("remember the model: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fmt.Errorf("remember the model: %w", err)
	}
	return nil
}
