// Package session keeps every conversation as an append-only JSON Lines log on
// disk so tern can resume, fork and rewind it: a Writer appends records without
// blocking its caller, Load reads a log back (recovering from a crash
// mid-write), List finds sessions, and Store keeps file checkpoints by hash.
//
// The format is described in docs/sessions.md. The package knows nothing of
// the agent or the terminal; an adapter maps agent events to records.
package session
