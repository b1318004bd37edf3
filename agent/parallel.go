package agent

import (
	"sync"

	"github.com/ternhq/tern/tools"
)

// callOutcome is how one call of an answer ended, before its result joins the
// conversation.
type callOutcome struct {
	res ToolResult
	// child is the finish of the subagent a task call ran, nil otherwise.
	child *Finish
}

// runCalls runs the calls of one answer and answers each with exactly one
// tool message, in the order of the calls whatever order they finish in,
// so requests stay deterministic. A run of consecutive calls that only
// read (read_file, list_files, grep, read-only tools) or start a subagent
// (task) runs concurrently, up to Options.MaxParallel at once; any other
// call runs alone, after the calls before it. Once the turn is cancelled
// the rest are answered as cancelled without running. When
// Options.BeforeTool refuses a call, it and the rest are answered as not
// run, and runCalls returns its error.
func (t *turn) runCalls(calls []*preparedCall) error {
	var stopped error
	for i := 0; i < len(calls); {
		j := i + 1
		if t.concurrent(calls[i]) {
			for j < len(calls) && t.concurrent(calls[j]) {
				j++
			}
		}
		batch := calls[i:j]
		outs := make([]callOutcome, len(batch))
		var run []int
		for k, pc := range batch {
			if stopped == nil && t.ctx.Err() == nil {
				if err := t.beforeTool(); err != nil && t.ctx.Err() == nil {
					stopped = err
				}
			}
			var guarded *ToolResult
			if stopped == nil && t.ctx.Err() == nil {
				var err error
				if guarded, err = t.repeats.note(pc); err != nil {
					stopped, outs[k].res = err, notRunStopped(err)
				}
			}
			switch {
			case outs[k].res.Status != 0:
			case stopped != nil:
				outs[k].res = notRunStopped(stopped)
			case t.ctx.Err() != nil:
				outs[k].res = t.notRunCancelled()
			case guarded != nil:
				outs[k].res = *guarded
			default:
				run = append(run, k)
			}
		}
		t.runBatch(batch, run, outs)
		for k, pc := range batch {
			t.settleCall(pc, outs[k])
		}
		i = j
	}
	return stopped
}

// runBatch executes the calls of batch that run lists, concurrently when
// there are several, and fills in their outcomes.
func (t *turn) runBatch(batch []*preparedCall, run []int, outs []callOutcome) {
	if len(run) == 1 {
		outs[run[0]] = t.perform(batch[run[0]])
		return
	}
	limit := t.a.opts.MaxParallel
	if limit <= 0 {
		limit = DefaultMaxParallel
	}
	sem := make(chan struct{}, limit)
	var wg sync.WaitGroup
	for _, k := range run {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			outs[k] = t.perform(batch[k])
		})
	}
	wg.Wait()
}

// settleCall appends a finished call's result to the conversation and
// reports it, on the turn's goroutine, in call order.
func (t *turn) settleCall(pc *preparedCall, o callOutcome) {
	res := o.res
	// The one way a result reaches the conversation, the session log
	// and the card: credentials in it are redacted here.
	res.Output, res.Summary = tools.Redact(res.Output), tools.Redact(res.Summary)
	if same, ok := t.a.unchangedRead(pc, res); ok {
		res = same
	}
	if o.child != nil {
		t.usage = t.usage.Add(o.child.Usage)
		t.estimated = t.estimated.Add(o.child.Estimated)
	}
	res = t.a.sendImages(res)
	m := ToolMessage(pc.call.ID, pc.call.Name, res.Status, res.Output)
	m.Images = res.Images
	t.appendMessage(m, Event{Call: pc.call, Result: &res})
	if pc.call.Name == ProposePlanTool && res.Status == tools.StatusOK {
		t.proposed = true
	}
	t.emit(Event{Kind: EventToolFinished, Call: pc.call, Result: &res})
}

// concurrent reports whether pc may run alongside its neighbours: a read
// or a task whose arguments parsed, with more than one call allowed at once.
func (t *turn) concurrent(pc *preparedCall) bool {
	if t.a.opts.MaxParallel == 1 || pc.tool == nil || pc.argErr != nil {
		return false
	}
	if pc.call.Name == TaskTool {
		return t.a.task != nil
	}
	return concurrentRead(pc.call.Name, pc.tool, t.a.opts.TrustReadOnlyMCP)
}
