package session

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"time"

	"github.com/ternhq/tern/agent"
	"github.com/ternhq/tern/provider"
	"github.com/ternhq/tern/tools"
	"github.com/ternhq/tern/tools/imaging"
)

// State is everything a session log says shaped the session, rebuilt by
// Restore so a resumed session behaves exactly as it left off.
type State struct {
	Header Header
	// System is the system prompt of the header: passing it as
	// agent.Options.System keeps every request's prefix byte-identical.
	System string
	// Messages is the conversation after the system prompt, exactly as the
	// agent held it (for agent.Options.History or Agent.SetHistory).
	Messages []provider.Message
	// Model and Policy are the ones in force at the end of the log.
	Model string
	// Effort is the reasoning effort chosen last ("": the model's
	// default).
	Effort string
	Policy agent.Policy
	// Planning is true when the session was in plan mode: tool calls then
	// use read-only, and Policy comes back when plan mode ends.
	Planning bool
	// Grants are the "allow for this session" keys (agent.Options.Grants).
	Grants []string
	// Usage sums every model request of the session; LastUsage is the last
	// request's, which tells how full the context window is.
	Usage, LastUsage provider.Usage
	// SubagentUsage is the part of Usage the task calls' subagents used.
	SubagentUsage provider.Usage
	// Estimated is the part of Usage that tern estimated because the
	// gateway reported none; LastEstimated says LastUsage is an estimate.
	Estimated     provider.Usage
	LastEstimated bool
	// Compactions are the summaries that replaced earlier messages.
	Compactions []Compaction
	// Todo is the model's todo list as the conversation holds it (the
	// last todo_write, or the list a compaction pinned), to show pinned.
	Todo []tools.TodoItem
	// Turns are the user turns in the conversation, oldest first: what a
	// rewind can go back to.
	Turns []TurnInfo
	// Title is the session's last title record ("" when it has none).
	Title string
	// LastTurn is the highest turn number in the log; pass it to
	// Recorder.StartAfter.
	LastTurn int
	// Entries are the transcript to show: messages, tool calls with their
	// results and approvals, errors and notices.
	Entries []Entry
	// Warnings say what was recovered or could not be restored.
	Warnings []string
}

// TurnInfo describes a user turn for the rewind list.
type TurnInfo struct {
	Turn int
	// Seq is the seq of the turn's user_message record.
	Seq  int64
	Time time.Time
	// Text is the prompt.
	Text string
	// Files counts the file changes edit_file and write_file made in the
	// turn; Commands the shell commands that changed files.
	Files, Commands int
	// Compacted is true when a compaction replaced the turn with its
	// summary; a rewind to it brings back the conversation as it was
	// before that compaction.
	Compacted bool
}

// EntryKind says what a transcript entry shows; the set is closed.
type EntryKind int

// The transcript entry kinds.
const (
	// EntryUser is a prompt.
	EntryUser EntryKind = iota + 1
	// EntryAssistant is an answer (Text, Reasoning, Interrupted).
	EntryAssistant
	// EntryTool is a tool call with its result and approval (Tool).
	EntryTool
	// EntryError is an error kept in the transcript (ErrorKind, Text).
	EntryError
	// EntryNotice is a line from tern: a model or policy change, a rewind.
	EntryNotice
	// EntryCompaction is a compaction: Text is the message that replaced
	// the earlier conversation (agent.ParseCompactMessage reads it), Auto
	// says the context threshold started it.
	EntryCompaction
)

// Entry is one item of the transcript.
type Entry struct {
	Kind EntryKind
	Turn int
	Seq  int64
	Time time.Time
	// Text is the prompt, answer, error message or notice.
	Text        string
	Reasoning   string
	Interrupted bool
	ErrorKind   string
	Tool        *ToolEntry
	// Auto marks an automatic compaction (EntryCompaction).
	Auto bool
}

// ToolEntry is a tool call as the transcript shows it.
type ToolEntry struct {
	CallID, Name string
	// Args are the JSON arguments as the conversation holds them.
	Args string
	// Result is nil when the log holds none (tern stopped while it ran).
	Result *ToolResult
	// Approval is how the call was approved or refused, if it was asked
	// about or decided by a policy or rule.
	Approval *Approval
	// Subagent is the conversation of the subagent a task call started.
	Subagent []Subagent
}

// notRunOutput answers a call the log has no result for, so the
// conversation stays valid for the next request. tern stopped while the
// call waited or ran: it may have done part of its work (a command is
// killed with tern, but only once it has started), so the model is told
// to look before running it again.
const notRunOutput = "Interrupted: tern stopped while this call was pending or running, so it may have run partially: check before running it again (look at the files or state it would change; do not assume it did nothing)."

// Restore rebuilds a session's state from its log: the conversation as the
// agent held it (interrupted answers and tool results included, calls left
// without a result answered as interrupted), model, approval policy, grants,
// token totals, compactions, the user turns and the transcript. Rewinds of
// the conversation are applied. What it had to recover is in Warnings.
func Restore(s *Session) (State, error) {
	if s == nil {
		return State{}, errors.New("restore: no session")
	}
	f := newFolder(s)
	for _, r := range s.Records {
		f.add(r)
	}
	return f.finish(), nil
}

// folder replays records into a State.
type folder struct {
	// store is the session's blob store, for its pictures ("" path: none).
	store *Store
	// pictures are the pictures loaded so far, by hash: a blob named again
	// is shared, not loaded and held once more.
	pictures map[string]provider.Image
	st       State
	conv     []provider.Message
	convSeq  []int64
	pending  []ToolCall
	answered map[string]bool
	// turnConv and turnEntry locate each turn still in the conversation.
	turnConv  map[int]int
	turnEntry map[int]int
	tools     map[string]*ToolEntry
	saved     map[int64]*savedFold
	grants    map[string]bool
	turns     map[int]*TurnInfo
	cur       int
	// hidden holds, for each turn a compaction replaced, the fold just
	// before that compaction, so a rewind can return to it.
	hidden map[int]*savedFold
	// unwrapped are the tool messages of conv, by seq, that hold their
	// output as it is, for finish to wrap.
	unwrapped map[int64]unwrapped
}

// savedFold is the conversation just before a rewind, so it can be undone.
type savedFold struct {
	conv      []provider.Message
	convSeq   []int64
	entries   []Entry
	turnConv  map[int]int
	turnEntry map[int]int
	hidden    map[int]*savedFold
}

// unwrapped is a tool message whose output is still to be wrapped with
// agent.ToolMessage (folder.finish).
type unwrapped struct {
	tool   string
	status tools.Status
}

func newFolder(s *Session) *folder {
	f := &folder{
		unwrapped: map[int64]unwrapped{},
		turnConv:  map[int]int{}, turnEntry: map[int]int{}, tools: map[string]*ToolEntry{},
		saved: map[int64]*savedFold{}, grants: map[string]bool{}, turns: map[int]*TurnInfo{},
		answered: map[string]bool{}, hidden: map[int]*savedFold{},
	}
	if s.Path != "" {
		f.store = NewStore(s.Path)
	}
	// Sized up front (about one entry and one message a record), as
	// growing them was a visible part of resuming a long session.
	f.st.Entries = make([]Entry, 0, len(s.Records))
	f.conv, f.convSeq = make([]provider.Message, 0, len(s.Records)), make([]int64, 0, len(s.Records))
	f.st.Header = s.Header
	f.st.System = s.Header.SystemPrompt
	f.st.Model = s.Header.Model
	f.st.Warnings = append(f.st.Warnings, s.Warnings...)
	p, err := agent.ParsePolicy(s.Header.ApprovalPolicy)
	if err != nil {
		f.warn("the session's approval policy %q is unknown; using ask", s.Header.ApprovalPolicy)
		p = agent.PolicyAsk
	}
	f.st.Policy = p
	if s.Header.Workspace != "" {
		if _, err := os.Stat(s.Header.Workspace); err != nil {
			f.warn("the session's workspace %s no longer exists; tern continues in the current one", s.Header.Workspace)
		}
	}
	return f
}

func (f *folder) warn(format string, args ...any) {
	f.st.Warnings = append(f.st.Warnings, fmt.Sprintf(format, args...))
}

func (f *folder) entry(r Record, e Entry) {
	e.Seq, e.Time = r.Seq, r.T
	f.st.Entries = append(f.st.Entries, e)
}

func (f *folder) message(seq int64, m provider.Message) {
	f.conv = append(f.conv, m)
	f.convSeq = append(f.convSeq, seq)
}

// curTurn is the turn of the last user message still in the conversation.
func (f *folder) curTurn() int { return f.cur }

// recount finds the current turn again after a rewind changed the turns.
func (f *folder) recount() {
	f.cur = 0
	for n := range f.turnConv {
		f.cur = max(f.cur, n)
	}
}

// images loads a prompt's pictures from the blob store; one that is
// missing or damaged is left out with a warning.
func (f *folder) images(refs []ImageRef) []provider.Image {
	var out []provider.Image
	for _, ref := range refs {
		if f.store == nil {
			f.warn("image %q: the session has no blob store; it is left out", ref.Name)
			continue
		}
		if img, ok := f.pictures[ref.Hash]; ok {
			img.Name = ref.Name
			out = append(out, img)
			continue
		}
		data, err := f.store.Load(ref.Hash)
		if err != nil {
			f.warn("image %q is left out: %v", ref.Name, err)
			continue
		}
		// The store holds checkpoints of files too, and the log says what
		// it likes: only a picture goes out as one, typed by its content.
		mediaType, ok := imaging.MediaType(data)
		if !ok {
			f.warn("image %q is left out: its blob is no picture", ref.Name)
			continue
		}
		img := provider.Image{MediaType: mediaType, Data: data, Hash: ref.Hash, Name: ref.Name}
		if f.pictures == nil {
			f.pictures = map[string]provider.Image{}
		}
		f.pictures[ref.Hash] = img
		out = append(out, img)
	}
	return out
}

func (f *folder) add(r Record) {
	switch b := r.Body.(type) {
	case UserMessage:
		f.closePending(r)
		turn := b.Turn
		if turn == 0 {
			turn = f.st.LastTurn + 1
		}
		f.st.LastTurn = max(f.st.LastTurn, turn)
		f.turnConv[turn], f.turnEntry[turn] = len(f.conv), len(f.st.Entries)
		f.cur = turn
		f.turns[turn] = &TurnInfo{Turn: turn, Seq: r.Seq, Time: r.T, Text: b.Text}
		f.message(r.Seq, provider.Message{Role: provider.RoleUser, Content: b.Text, Images: f.images(b.Images)})
		f.entry(r, Entry{Kind: EntryUser, Turn: turn, Text: b.Text})
	case AssistantMessage:
		f.addAnswer(r, b)
	case ToolResult:
		f.addResult(r, b)
	case Approval:
		a := b
		if te := f.tools[b.CallID]; te != nil {
			te.Approval = &a
		}
	case Grant:
		if b.Revoked {
			delete(f.grants, b.Scope)
		} else {
			f.grants[b.Scope] = true
		}
	case Usage:
		u := provider.Usage{PromptTokens: b.Prompt, CompletionTokens: b.Completion, CachedPromptTokens: b.Cached}
		f.st.Usage = f.st.Usage.Add(u)
		if b.Task != "" {
			// A subagent's request: counted, but it says nothing of the
			// session's own context.
			f.st.SubagentUsage = f.st.SubagentUsage.Add(u)
			if b.Estimated {
				f.st.Estimated = f.st.Estimated.Add(u)
			}
			return
		}
		f.st.LastUsage, f.st.LastEstimated = u, b.Estimated
		if b.Estimated {
			f.st.Estimated = f.st.Estimated.Add(u)
		}
	case ModelChange:
		f.st.Model = b.Model
		text := "Model: " + b.Model
		if b.Effort != nil {
			f.st.Effort = *b.Effort
			text += " · effort " + cmp.Or(*b.Effort, "default")
		}
		f.entry(r, Entry{Kind: EntryNotice, Turn: f.curTurn(), Text: text})
	case PolicyChange:
		p, err := agent.ParsePolicy(b.Policy)
		if err != nil {
			f.warn("record %d: unknown approval policy %q ignored", r.Seq, b.Policy)
			return
		}
		f.st.Policy = p
		f.entry(r, Entry{Kind: EntryNotice, Turn: f.curTurn(), Text: "Approval policy: " + p.String()})
	case PlanMode:
		f.st.Planning = b.On
	case Compaction:
		f.compact(r, b)
	case Rewind:
		f.rewind(r, b)
	case ErrorRecord:
		f.entry(r, Entry{Kind: EntryError, Turn: f.curTurn(), Text: b.Message, ErrorKind: b.Kind})
	case Checkpoint:
		if t := f.turns[b.Turn]; t != nil && b.Rewind == 0 {
			t.Files++
		}
	case Snapshot:
		if t := f.turns[b.Turn]; t != nil {
			t.Commands++
		}
	case Request:
		// A measurement; the conversation is in the message records.
	case Title:
		f.st.Title = b.Title
	case Subagent:
		if te := f.tools[b.CallID]; te != nil {
			te.Subagent = append(te.Subagent, b)
		}
	case AssistantDelta:
		// Load folds deltas into messages; a raw one changes nothing.
	}
}

// addAnswer adds an assistant message as the agent kept it: an interrupted
// one with its mark and without calls, an empty one not at all.
func (f *folder) addAnswer(r Record, b AssistantMessage) {
	f.closePending(r)
	turn := f.curTurn()
	if b.Text != "" || b.Reasoning != "" || b.Interrupted {
		f.entry(r, Entry{Kind: EntryAssistant, Turn: turn, Text: b.Text, Reasoning: b.Reasoning, Interrupted: b.Interrupted})
	}
	if b.Interrupted {
		f.message(r.Seq, agent.InterruptedMessage(b.Text, b.Reasoning))
		return
	}
	if b.Text == "" && len(b.ToolCalls) == 0 {
		return
	}
	m := provider.Message{Role: provider.RoleAssistant, Content: b.Text, Reasoning: b.Reasoning}
	for _, c := range b.ToolCalls {
		m.ToolCalls = append(m.ToolCalls, provider.ToolCall(c))
		te := &ToolEntry{CallID: c.ID, Name: c.Name, Args: c.Arguments}
		f.tools[c.ID] = te
		f.entry(r, Entry{Kind: EntryTool, Turn: turn, Tool: te})
	}
	f.message(r.Seq, m)
	f.pending = b.ToolCalls
	clear(f.answered)
}

// addResult answers a pending call; a result for a call the conversation
// never held (one abandoned when its answer was cut short) only shows.
func (f *folder) addResult(r Record, b ToolResult) {
	res := b
	status, ok := toolStatus(b.Status)
	if !ok {
		f.warn("record %d: unknown tool status %q read as error", r.Seq, b.Status)
	}
	isPending := !f.answered[b.CallID] && slices.ContainsFunc(f.pending, func(c ToolCall) bool { return c.ID == b.CallID })
	if isPending {
		f.answered[b.CallID] = true
		// The output goes in as it is and is wrapped for the model in
		// finish, once it is known to have outlived the compactions
		// (agent.ToolMessage copies it: pprof of tern -c, 2,000 turns, had
		// that copy of every output at a tenth of the resume).
		f.message(r.Seq, provider.Message{Role: provider.RoleTool, ToolCallID: b.CallID, Content: b.Output, Images: f.images(b.Images)})
		f.unwrapped[r.Seq] = unwrapped{tool: b.Tool, status: status}
	}
	if te := f.tools[b.CallID]; te != nil && isPending {
		te.Result = &res
		return
	}
	te := &ToolEntry{CallID: b.CallID, Name: b.Tool, Result: &res}
	f.entry(r, Entry{Kind: EntryTool, Turn: f.curTurn(), Tool: te})
}

// closePending answers the calls of the last answer that got no result, so
// every call has its tool message before the conversation goes on.
func (f *folder) closePending(r Record) {
	for _, c := range f.pending {
		if f.answered[c.ID] {
			continue
		}
		f.message(r.Seq, agent.ToolMessage(c.ID, c.Name, tools.StatusCancelled, notRunOutput))
		f.warn("the call %s (%s) has no result in the log (tern stopped while it ran); the model is told it may have run partially", c.ID, c.Name)
	}
	f.pending = nil
	clear(f.answered)
}

// compact replaces the messages of records FromSeq..ToSeq with the summary,
// sent as a user message where the first of them was. The summary takes
// that message's seq, so the conversation stays in seq order and a later
// compaction's range covers it. The turns it replaced stay rewindable.
func (f *folder) compact(r Record, b Compaction) {
	f.closePending(r)
	f.st.Compactions = append(f.st.Compactions, b)
	before := f.save()
	var conv []provider.Message
	var seqs []int64
	moved := map[int]int{} // old index in conv -> new
	placed := false
	for i, m := range f.conv {
		s := f.convSeq[i]
		if s >= b.FromSeq && s <= b.ToSeq {
			if !placed {
				conv = append(conv, provider.Message{Role: provider.RoleUser, Content: b.Summary})
				seqs = append(seqs, s)
				placed = true
			}
			continue
		}
		moved[i] = len(conv)
		conv = append(conv, m)
		seqs = append(seqs, s)
	}
	if !placed {
		f.warn("record %d compacts records %d-%d, which hold no message of the conversation; ignored", r.Seq, b.FromSeq, b.ToSeq)
		return
	}
	for t, i := range f.turnConv {
		if j, ok := moved[i]; ok {
			f.turnConv[t] = j
			continue
		}
		delete(f.turnConv, t)
		f.hidden[t] = before
	}
	f.conv, f.convSeq = conv, seqs
	// The last request's size no longer says how full the window is.
	f.st.LastUsage, f.st.LastEstimated = provider.Usage{}, false
	f.entry(r, Entry{Kind: EntryCompaction, Turn: f.curTurn(), Text: b.Summary, Auto: b.Auto})
}

// rewind applies a rewind record to the conversation.
func (f *folder) rewind(r Record, b Rewind) {
	f.closePending(r)
	f.saved[r.Seq] = f.save()
	switch {
	case b.Undo != 0:
		if !b.Conversation {
			f.entry(r, Entry{Kind: EntryNotice, Turn: f.curTurn(), Text: "Undid the restore of the files"})
			return
		}
		sv := f.saved[b.Undo]
		if sv == nil {
			f.warn("record %d undoes the rewind %d, which the log does not hold", r.Seq, b.Undo)
			return
		}
		f.load(sv)
		f.entry(r, Entry{Kind: EntryNotice, Turn: f.curTurn(), Text: fmt.Sprintf("Undid the rewind to turn %d", b.Turn)})
	case b.Conversation:
		idx, ok := f.turnConv[b.Turn]
		if sv := f.hidden[b.Turn]; !ok && sv != nil {
			// A turn a compaction replaced: back to the conversation as it
			// was before that compaction, then to the turn's start.
			f.load(sv)
			idx, ok = f.turnConv[b.Turn]
		}
		if !ok {
			f.warn("record %d rewinds to turn %d, which is not in the conversation; ignored", r.Seq, b.Turn)
			return
		}
		f.conv, f.convSeq = f.conv[:idx:idx], f.convSeq[:idx:idx]
		f.st.Entries = f.st.Entries[:f.turnEntry[b.Turn]:f.turnEntry[b.Turn]]
		for t, i := range f.turnConv {
			if i >= idx {
				delete(f.turnConv, t)
				delete(f.turnEntry, t)
			}
		}
		f.reindexTools()
		text := fmt.Sprintf("Rewound the conversation to before turn %d", b.Turn)
		if b.Code {
			text = fmt.Sprintf("Rewound the conversation and the files to before turn %d", b.Turn)
		}
		f.entry(r, Entry{Kind: EntryNotice, Turn: f.curTurn(), Text: text})
	case b.Code:
		f.entry(r, Entry{Kind: EntryNotice, Turn: f.curTurn(), Text: fmt.Sprintf("Restored the files to before turn %d", b.Turn)})
	}
}

func (f *folder) save() *savedFold {
	entries := make([]Entry, len(f.st.Entries))
	n := 0
	for _, e := range f.st.Entries {
		if e.Tool != nil {
			n++
		}
	}
	// The tool entries are copied into one block: one allocation each was
	// most of a compaction's cost when a long session is read back (pprof
	// of tern -c, 2,000 turns: save 60 ms of 650).
	tools := make([]ToolEntry, 0, n)
	for i, e := range f.st.Entries {
		if e.Tool != nil {
			tools = append(tools, *e.Tool)
			e.Tool = &tools[len(tools)-1]
		}
		entries[i] = e
	}
	return &savedFold{
		conv: cloneConv(f.conv), convSeq: slices.Clone(f.convSeq), entries: entries,
		turnConv: cloneMap(f.turnConv), turnEntry: cloneMap(f.turnEntry), hidden: maps.Clone(f.hidden),
	}
}

func (f *folder) load(sv *savedFold) {
	f.conv, f.convSeq = cloneConv(sv.conv), slices.Clone(sv.convSeq)
	f.st.Entries = slices.Clone(sv.entries)
	f.turnConv, f.turnEntry = cloneMap(sv.turnConv), cloneMap(sv.turnEntry)
	f.hidden = maps.Clone(sv.hidden)
	if f.hidden == nil {
		f.hidden = map[int]*savedFold{}
	}
	f.reindexTools()
}

func (f *folder) reindexTools() {
	f.recount()
	f.tools = map[string]*ToolEntry{}
	for _, e := range f.st.Entries {
		if e.Tool != nil {
			f.tools[e.Tool.CallID] = e.Tool
		}
	}
}

func (f *folder) finish() State {
	f.closePending(Record{Seq: f.lastSeq()})
	for i, m := range f.conv {
		if u, ok := f.unwrapped[f.convSeq[i]]; ok && m.Role == provider.RoleTool {
			wrapped := agent.ToolMessage(m.ToolCallID, u.tool, u.status, m.Content)
			wrapped.Images = m.Images
			f.conv[i] = wrapped
		}
	}
	f.st.Messages = f.conv
	for k := range f.grants {
		f.st.Grants = append(f.st.Grants, k)
	}
	sort.Strings(f.st.Grants)
	for t := range f.turnConv {
		f.st.Turns = append(f.st.Turns, *f.turns[t])
	}
	for t := range f.hidden {
		ti := *f.turns[t]
		ti.Compacted = true
		f.st.Turns = append(f.st.Turns, ti)
	}
	f.st.Todo = agent.CurrentTodo(f.conv)
	sort.Slice(f.st.Turns, func(i, j int) bool { return f.st.Turns[i].Seq < f.st.Turns[j].Seq })
	return f.st
}

func (f *folder) lastSeq() int64 {
	if n := len(f.convSeq); n > 0 {
		return f.convSeq[n-1]
	}
	return 0
}

func cloneConv(ms []provider.Message) []provider.Message {
	out := make([]provider.Message, len(ms))
	for i, m := range ms {
		m.ToolCalls = slices.Clone(m.ToolCalls)
		out[i] = m
	}
	return out
}

func cloneMap(m map[int]int) map[int]int {
	out := make(map[int]int, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// Current describes the environment a session resumes in, for Adapt.
type Current struct {
	// Workspace is the workspace root tern runs in now.
	Workspace string
	// Model is the model to use when the session's model is gone.
	Model string
	// Models are the models the gateway offers; nil skips the check.
	Models []string
	// ToolsHash is session.ToolsHash of the tools offered now; "" skips
	// the check.
	ToolsHash string
}

// Adapt checks the state against the environment it resumes in: when the
// session's model no longer exists it says so and switches to the current
// one (Restore already said so of a workspace that is gone), and it notes a
// different workspace or changed tools. It returns the new warnings, which
// are also added to Warnings.
func (st *State) Adapt(cur Current) []string {
	var out []string
	ws := st.Header.Workspace
	if ws != "" && cur.Workspace != "" && filepath.Clean(ws) != filepath.Clean(cur.Workspace) {
		// A workspace that is gone was reported by Restore already.
		if _, err := os.Stat(ws); err == nil {
			out = append(out, fmt.Sprintf("the session was recorded in %s; continuing in %s", ws, cur.Workspace))
		}
	}
	if cur.Models != nil && !slices.Contains(cur.Models, st.Model) && cur.Model != "" {
		out = append(out, fmt.Sprintf("the model %s is no longer offered by the gateway; continuing with %s", st.Model, cur.Model))
		st.Model = cur.Model
	}
	if cur.ToolsHash != "" && st.Header.ToolsHash != "" && cur.ToolsHash != st.Header.ToolsHash {
		out = append(out, "the tools changed since the session was recorded (a different tern version?); earlier tool calls may not match them")
	}
	st.Warnings = append(st.Warnings, out...)
	return out
}
