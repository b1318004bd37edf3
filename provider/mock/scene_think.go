package mock

import (
	"fmt"
	"strings"
)

// thinkStep streams reasoning before the answer, so the reasoning display can
// be tried offline. Both are derived from the message, never from the clock.
func thinkStep(t turn) answer {
	q := shorten(strings.Join(strings.Fields(t.user), " "), 120)
	words := len(strings.Fields(t.user))
	reasoning := fmt.Sprintf("The user wrote: %q (%d words).\n\n"+
		"I am tern's offline scripted provider, so I cannot really reason about it. "+
		"Still, a real model would go through steps like these:\n\n"+
		"1. Restate the goal in one sentence and note what is unclear.\n"+
		"2. Decide which files to read first: the entry point, then the package the question names.\n"+
		"3. Plan the smallest change that answers it, and how to check it (tests, vet, a run).\n"+
		"4. Weigh the risks: edits ask for approval, so propose them one at a time.\n\n"+
		"That is enough to show how reasoning streams before the answer; now the answer.", q, words)
	text := "## Thought it through\n\n" +
		"The block above was **reasoning**: it streams first, separately from this answer, " +
		"the way reasoning models (through `reasoning_content`) stream it.\n\n" +
		"- Reasoning text is shown while it arrives and kept in the transcript.\n" +
		"- It is never sent back to the gateway in later requests.\n" +
		"- With a real model, this is where it plans before calling tools.\n\n" +
		"Configure a gateway (`LLM_BASE_URL`, `LLM_API_KEY`, `LLM_MODEL`) to get real reasoning.\n"
	return answer{reasoning: reasoning, text: text}
}
