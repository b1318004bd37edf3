package mock

import _ "embed"

// offlineText is the default scene's answer; it lives in a Markdown file so
// it can be read and edited as Markdown.
//
//go:embed text/offline.md
var offlineText string

// longText is the long scene's answer, several KB of mixed Markdown.
//
//go:embed text/long.md
var longText string

// defaultStep explains offline mode and how to configure a gateway.
func defaultStep(turn) answer { return answer{text: offlineText} }

// longStep streams a long Markdown answer for trying streaming and scrolling.
func longStep(turn) answer { return answer{text: longText} }
