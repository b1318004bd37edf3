package tui

// foldingBlock is a block drawn short or in full: ctrl+o expands the latest
// one in the conversation, and the transcript view draws each in full
// unless folded there. Tool cards and reasoning are; messages are not.
type foldingBlock interface {
	block
	// toggleExpanded expands or collapses the block in the conversation.
	toggleExpanded()
	// drawAt draws the block at detail d for rc.width columns, whatever
	// its state in the conversation.
	drawAt(rc *renderCtx, d cardDetail) []string
}

func (c *toolCard) toggleExpanded() { c.expanded = !c.expanded }

func (c *toolCard) drawAt(rc *renderCtx, d cardDetail) []string { return c.draw(rc, d) }

func (b *reasoningBlock) toggleExpanded() { b.expanded = !b.expanded }

// drawAt shows the reasoning whole when d is open, else its one line.
func (b *reasoningBlock) drawAt(rc *renderCtx, d cardDetail) []string { return b.draw(rc, d.open()) }
