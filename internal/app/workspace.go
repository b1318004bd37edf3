package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
)

// Shell runs a `!command` the user typed through run_shell, so it gets the
// same process-group handling, environment filtering and output cap as the
// model's commands (but no approval: the user asked for it).
func (s *Session) Shell(ctx context.Context, command string, output func(string, bool)) (int, error) {
	t, ok := s.reg.Get(tools.RunShellName)
	if !ok {
		return 0, fmt.Errorf("%s: %w", tools.RunShellName, ErrUnavailable)
	}
	args, err := json.Marshal(map[string]string{"command": command})
	if err != nil {
		return 0, fmt.Errorf("encode the command: %w", err)
	}
	stdout := func(text string) { output(text, false) }
	var r tools.Result
	if sr, ok := t.(tools.StreamRunner); ok {
		r = sr.RunStreams(ctx, args, stdout, func(text string) { output(text, true) })
	} else {
		r = t.Run(ctx, args, stdout)
	}
	switch r.Status {
	case tools.StatusOK:
		if r.SandboxNote != "" {
			return r.ExitCode, &SandboxRefused{Note: r.SandboxNote}
		}
		return r.ExitCode, nil
	case tools.StatusCancelled:
		return r.ExitCode, context.Canceled
	case tools.StatusError, tools.StatusDenied:
		return r.ExitCode, errors.New(r.Output)
	}
	return r.ExitCode, nil
}

// Attach reads an @-mentioned file through read_file, so mentions pass the
// same workspace guard, secret-file filter and clamp as the model's reads.
func (s *Session) Attach(path string) (string, error) {
	t, ok := s.reg.Get(tools.ReadFileName)
	if !ok {
		return "", fmt.Errorf("%s: %w", tools.ReadFileName, ErrUnavailable)
	}
	args, err := json.Marshal(map[string]string{"path": path})
	if err != nil {
		return "", fmt.Errorf("encode the path: %w", err)
	}
	r := t.Run(context.Background(), args, nil)
	switch r.Status {
	case tools.StatusOK:
		return r.Output, nil
	case tools.StatusError, tools.StatusDenied, tools.StatusCancelled:
		return "", errors.New(r.Output)
	}
	return "", errors.New(r.Output)
}

// Files lists up to max workspace files, with the tools' rules (.gitignore,
// secrets, links), in batches as they are found.
func (s *Session) Files(ctx context.Context, max int, found func(batch []string)) error {
	return s.ws.ListFilesBatched(ctx, max, found)
}

// Remember adds a line to the project's AGENTS.md.
func (s *Session) Remember(line string) (string, error) {
	return agent.AppendMemory(s.ws.Root, line)
}

// AttachImage reads an @-mentioned or pasted picture in the workspace,
// through the same guards as read_file (Workspace.ReadImage), scaled for
// the model.
func (s *Session) AttachImage(path string) (provider.Image, error) {
	img, err := s.ws.ReadImage(context.Background(), path)
	if err != nil {
		return provider.Image{}, err
	}
	return provider.Image{MediaType: img.MediaType, Data: img.Data, Hash: img.Hash, Name: img.Name,
		Width: img.Width, Height: img.Height}, nil
}
