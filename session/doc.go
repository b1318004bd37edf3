// Package session keeps every conversation as an append-only JSON Lines log on
// disk so tern can resume, fork and rewind it: a Writer appends records without
// blocking its caller, Load reads a log back (recovering from a crash
// mid-write), List finds sessions, and Store keeps file checkpoints by hash.
//
// On top of the log: a Recorder maps the agent's events to records, Restore
// rebuilds what shaped a session (conversation, model, policy, grants, token
// totals, transcript) to resume it, a Checkpointer saves files before tools
// change them and snapshots the working tree around shell commands in a
// Shadow git repository, a Rewinder puts files and conversation back to an
// earlier turn (and undoes that), Fork copies a session, and Export renders
// it as Markdown. The format is described in docs/sessions.md.
package session
