package mock

// Notice is the one-line message cmd/tern prints when it falls back to the
// offline provider, so the user knows why answers are scripted and how to
// switch to a real gateway.
func Notice() string {
	return "tern: no API key configured, using the offline scripted provider (MOCK). " +
		"Set LLM_BASE_URL, LLM_API_KEY and LLM_MODEL to use a real gateway; run `tern doctor` to check."
}
