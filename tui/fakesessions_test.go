package tui

import (
	"context"

	"github.com/ternhq/tern/internal/app"
)

// The fake's saved sessions and workspace: what the session commands, `!`
// and @-mentions ask of the session.

func (f *fakeBackend) ID() string {
	if !f.recorded {
		return ""
	}
	return "cur00000"
}

func (f *fakeBackend) Recorded() bool { return f.recorded }

func (f *fakeBackend) List(ctx context.Context) ([]app.SessionInfo, error) {
	if f.sessions == nil {
		return nil, unavailable("list")
	}
	return f.sessions.List(ctx)
}

func (f *fakeBackend) Open(ctx context.Context, id string, fork bool) (*app.Switch, error) {
	if f.sessions == nil {
		return nil, unavailable("open")
	}
	return f.sessions.Open(ctx, id, fork)
}

func (f *fakeBackend) Fork(ctx context.Context, turn int) (*app.Switch, error) {
	if f.sessions == nil {
		return nil, unavailable("fork")
	}
	return f.sessions.Fork(ctx, turn)
}

func (f *fakeBackend) Turns(ctx context.Context) (*app.Turns, error) {
	if f.sessions == nil {
		return nil, unavailable("turns")
	}
	return f.sessions.Turns(ctx)
}

func (f *fakeBackend) Rewind(ctx context.Context, turn int, mode app.RewindMode, c app.ConflictChoice) (*app.Switch, error) {
	if f.sessions == nil {
		return nil, unavailable("rewind")
	}
	return f.sessions.Rewind(ctx, turn, mode, c)
}

func (f *fakeBackend) UndoRewind(ctx context.Context, c app.ConflictChoice) (*app.Switch, error) {
	if f.sessions == nil {
		return nil, unavailable("undo rewind")
	}
	return f.sessions.UndoRewind(ctx, c)
}

func (f *fakeBackend) Undo(ctx context.Context, force bool) (string, error) {
	if f.undo == nil {
		return "", unavailable("undo")
	}
	return f.undo(ctx, force)
}

func (f *fakeBackend) Diff(ctx context.Context) (string, error) {
	if f.diff == nil {
		return "", unavailable("diff")
	}
	return f.diff(ctx)
}

func (f *fakeBackend) Export(path string) (string, error) {
	if f.export == nil {
		return "", unavailable("export")
	}
	return f.export(path)
}

func (f *fakeBackend) Rename(title string) (string, error) {
	if f.rename == nil {
		return "", unavailable("rename")
	}
	return f.rename(title)
}

func (f *fakeBackend) ContinueUnrecorded() bool {
	return f.continueUnrecorded != nil && f.continueUnrecorded()
}

func (f *fakeBackend) Shell(ctx context.Context, command string, output func(text string, stderr bool)) (int, error) {
	if f.shell == nil {
		return 0, unavailable("shell")
	}
	return f.shell(ctx, command, output)
}

func (f *fakeBackend) Attach(path string) (string, error) {
	if f.attach == nil {
		return "", unavailable("attach")
	}
	return f.attach(path)
}

func (f *fakeBackend) Files(ctx context.Context, max int, found func([]string)) error {
	if f.files == nil {
		return unavailable("files")
	}
	files, err := f.files(ctx, max)
	if len(files) > 0 {
		found(files)
	}
	return err
}

func (f *fakeBackend) Remember(line string) (string, error) {
	if f.remember == nil {
		return "", unavailable("remember")
	}
	return f.remember(line)
}
