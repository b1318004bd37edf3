package tools

// ReadOnly is a tool that says whether it only reads, such as an MCP tool
// the user marked read-only. The agent runs such tools alongside the other
// reads of one answer and offers them to subagents; tools without it count
// as read-only only when they are read_file, list_files or grep.
type ReadOnly interface {
	// ReadOnly reports whether a call never changes anything.
	ReadOnly() bool
}
