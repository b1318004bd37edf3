package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/internal/app"
	"github.com/ternhq/tern/internal/sanitize"
	"github.com/ternhq/tern/tools"
)

// maxShellContext bounds the output of a `!` command passed to the model.
const maxShellContext = 8 << 10

// shellDone is a finished `!` command kept for the next message.
type shellDone struct {
	command string
	code    int
	output  string
	// note is the sandbox's note when it may have refused part of it.
	note string
}

// shellRun is a `!` command in progress.
type shellRun struct {
	// command is the command as typed, for the model; the card shows it
	// with hidden characters escaped.
	command string
	card    *toolCard
	ctx     context.Context
	ch      chan shellOutputMsg
	cancel  context.CancelFunc
}

// shellOutputMsg is a chunk of a `!` command's output, or its end.
type shellOutputMsg struct {
	run   *shellRun
	text  string
	isErr bool // text came from standard error
	done  bool
	code  int
	err   error
	took  time.Duration
	close bool
}

// runShell starts a `!` command: the user asked for it, so it needs no
// approval. Its command and output go to the model with the next message.
func (m *model) runShell(command string) tea.Cmd {
	if command == "" {
		m.setNotice("type a command after !", true)
		return nil
	}
	ctx, cancel := context.WithCancel(m.ctx)
	shown := sanitize.Visible(command)
	card := &toolCard{name: "shell", shell: true, command: shown, main: firstLine(shown), state: cardRunning, start: m.rc.now}
	run := &shellRun{command: command, card: card, ctx: ctx, ch: make(chan shellOutputMsg, 64), cancel: cancel}
	m.shell = run
	m.busy = true
	m.turnStart = m.rc.now
	m.tr.end()
	m.tr.add(card)
	m.latest = card
	be := m.be
	start := func() tea.Msg {
		go func() {
			defer close(run.ch)
			t0 := time.Now()
			code, err := be.Shell(ctx, command, func(s string, stderr bool) {
				select {
				case run.ch <- shellOutputMsg{run: run, text: s, isErr: stderr}:
				case <-ctx.Done():
				}
			})
			run.ch <- shellOutputMsg{run: run, done: true, code: code, err: err, took: time.Since(t0)}
		}()
		return waitShell(run)()
	}
	return tea.Batch(start, m.scheduleFrame(spinnerEvery))
}

// waitShell waits for the next chunk of a `!` command.
func waitShell(run *shellRun) tea.Cmd {
	return func() tea.Msg {
		msg, ok := <-run.ch
		if !ok {
			return shellOutputMsg{run: run, close: true}
		}
		return msg
	}
}

// onShellOutput shows a `!` command's output and, at its end, keeps it as
// context for the next message.
func (m *model) onShellOutput(msg shellOutputMsg) tea.Cmd {
	run := msg.run
	switch {
	case msg.close:
		return nil
	case !msg.done:
		run.card.addOutput(msg.text, msg.isErr)
		return tea.Batch(m.markStreamed(run.card), waitShell(run))
	}
	cancelled := run.ctx.Err() != nil
	run.cancel()
	m.filesStale = true // the command may have made or removed files
	var refused *app.SandboxRefused
	if errors.As(msg.err, &refused) {
		msg.err = nil // it ran; the card and the model are told below
	}
	res := &agent.ToolResult{Status: tools.StatusOK, ExitCode: msg.code, Duration: msg.took, Sandboxed: refused != nil}
	run.card.flushOutput()
	out := run.card.outputText()
	switch {
	case cancelled:
		res.Status = tools.StatusCancelled
	case msg.err != nil:
		res.Status, res.Output = tools.StatusError, msg.err.Error()
	case msg.code != 0:
		res.Status = tools.StatusError
		res.Summary = fmt.Sprintf("exit %d", msg.code)
	default:
		res.Summary = fmt.Sprintf("%d lines", strings.Count(strings.TrimRight(out, "\n"), "\n")+btoi(out != ""))
	}
	run.card.finish(res)
	m.tr.changed(run.card)
	if res.Status != tools.StatusCancelled {
		ctxOut := out
		if len(ctxOut) > maxShellContext {
			ctxOut = "…(earlier output cut)\n" + ctxOut[len(ctxOut)-maxShellContext:]
		}
		if msg.err != nil {
			ctxOut += "\n(error: " + msg.err.Error() + ")"
		}
		done := shellDone{command: run.command, code: msg.code, output: strings.TrimRight(ctxOut, "\n")}
		if refused != nil {
			done.note = refused.Note
		}
		m.shellContext = append(m.shellContext, done)
	}
	m.shell = nil
	m.busy = false
	return m.sendQueued()
}

// shellBlock is the one context block the `!` commands run since the last
// message add to the next one, and the chip that stands for it.
// Credentials are redacted for the model as in a tool result.
func shellBlock(runs []shellDone) (text, chip string) {
	one := func(d shellDone) string {
		s := fmt.Sprintf("`%s` (exit code %d); its output:\n```\n%s\n```", d.command, d.code, d.output)
		if d.note != "" {
			s += "\n" + d.note
		}
		return s
	}
	if len(runs) == 1 {
		return tools.Redact("I ran " + one(runs[0])), "shell output"
	}
	parts := make([]string, len(runs))
	for i, d := range runs {
		parts[i] = fmt.Sprintf("%d. ", i+1) + one(d)
	}
	return tools.Redact(fmt.Sprintf("I ran %d commands, in this order:\n\n", len(runs)) + strings.Join(parts, "\n\n")),
		fmt.Sprintf("shell output of %d commands", len(runs))
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
