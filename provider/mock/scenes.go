package mock

// scene is one scripted behaviour of the offline provider. It is chosen by
// keywords in the last user message; its step looks at the tool results that
// followed that message and returns the next reply, so a scene that calls
// tools advances only as results arrive, never by counting turns.
type scene struct {
	// name appears in tool-call ids (call_<name>_<n>) and in tests.
	name string
	// keywords are lower-case words or phrases that select the scene.
	keywords []string
	// leading keywords must open the request (after "please", "can you"...);
	// otherwise they count anywhere in it.
	leading bool
	// step returns the next reply given the turn so far.
	step func(t turn) answer
}

// scenes is the table of scripted scenes. When keywords of several scenes
// occur, the earliest in the message wins; on a tie, the one listed first.
func scenes() []scene {
	return []scene{
		{name: "delegate", leading: true, step: delegateStep,
			keywords: []string{"delegate"}},
		{name: "read", leading: true, step: readStep,
			keywords: []string{"read", "summarise", "summarize", "explain", "open", "cat"}},
		{name: "search", leading: true, step: searchStep,
			keywords: []string{"search", "find", "grep", "look for"}},
		{name: "edit", leading: true, step: editStep,
			keywords: []string{"edit", "modify", "change", "annotate", "comment", "add a comment to"}},
		{name: "run", leading: true, step: runStep,
			keywords: []string{"run", "exec", "execute", "$"}},
		{name: "init", leading: true, step: initStep,
			keywords: []string{"write an agents.md"}},
		{name: "fail", step: failStep,
			keywords: []string{"fail", "failing", "broken", "break"}},
		{name: "think", step: thinkStep,
			keywords: []string{"think", "thinking", "reason", "reasoning"}},
		{name: "long", step: longStep,
			keywords: []string{"long", "longer", "stream", "streaming"}},
		{name: "tour", leading: true, step: tourStep,
			keywords: []string{"tour"}},
		{name: "compact", leading: true, step: compactStep,
			keywords: []string{"compaction request"}},
	}
}

// planScene plans, in plan mode, a request no other scene knows.
func planScene() scene {
	return scene{name: "plan", step: planStep}
}

// defaultScene answers anything no keyword selects: what offline mode is and
// how to leave it.
func defaultScene() scene {
	return scene{name: "default", step: defaultStep}
}
