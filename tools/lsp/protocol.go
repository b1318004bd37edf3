package lsp

// The subset of the language server protocol tern speaks: lifecycle, text
// synchronisation, watched files and published diagnostics.

// position is a zero-based line and UTF-16 character offset.
type position struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

// lspRange spans two positions.
type lspRange struct {
	Start position `json:"start"`
	End   position `json:"end"`
}

// lspDiagnostic is one diagnostic as a server publishes it.
type lspDiagnostic struct {
	Range    lspRange `json:"range"`
	Severity int      `json:"severity,omitempty"`
	Source   string   `json:"source,omitempty"`
	Message  string   `json:"message"`
}

// publishDiagnosticsParams is textDocument/publishDiagnostics.
type publishDiagnosticsParams struct {
	URI         string          `json:"uri"`
	Version     *int            `json:"version,omitempty"`
	Diagnostics []lspDiagnostic `json:"diagnostics"`
}

// textDocumentItem is a document opened with its content.
type textDocumentItem struct {
	URI        string `json:"uri"`
	LanguageID string `json:"languageId"`
	Version    int    `json:"version"`
	Text       string `json:"text"`
}

// didOpenParams is textDocument/didOpen.
type didOpenParams struct {
	TextDocument textDocumentItem `json:"textDocument"`
}

// versionedDocument names a document at a version.
type versionedDocument struct {
	URI     string `json:"uri"`
	Version int    `json:"version"`
}

// contentChange replaces a document's whole text.
type contentChange struct {
	Text string `json:"text"`
}

// didChangeParams is textDocument/didChange with full-text changes.
type didChangeParams struct {
	TextDocument   versionedDocument `json:"textDocument"`
	ContentChanges []contentChange   `json:"contentChanges"`
}

// documentID names a document.
type documentID struct {
	URI string `json:"uri"`
}

// didCloseParams is textDocument/didClose.
type didCloseParams struct {
	TextDocument documentID `json:"textDocument"`
}

// File change types of workspace/didChangeWatchedFiles.
const (
	fileCreated = 1
	fileChanged = 2
	fileDeleted = 3
)

// fileEvent is one changed file.
type fileEvent struct {
	URI  string `json:"uri"`
	Type int    `json:"type"`
}

// didChangeWatchedFilesParams is workspace/didChangeWatchedFiles.
type didChangeWatchedFilesParams struct {
	Changes []fileEvent `json:"changes"`
}

// workspaceFolder is one root the server works on.
type workspaceFolder struct {
	URI  string `json:"uri"`
	Name string `json:"name"`
}

// clientInfo names tern to the server.
type clientInfo struct {
	Name    string `json:"name"`
	Version string `json:"version,omitempty"`
}

// initializeParams is the initialize request.
type initializeParams struct {
	ProcessID             int               `json:"processId"`
	ClientInfo            clientInfo        `json:"clientInfo"`
	RootURI               string            `json:"rootUri"`
	WorkspaceFolders      []workspaceFolder `json:"workspaceFolders"`
	Capabilities          map[string]any    `json:"capabilities"`
	InitializationOptions map[string]any    `json:"initializationOptions,omitempty"`
}

// clientCapabilities says what tern understands: pushed diagnostics with
// versions, full-text synchronisation, configuration requests (answered
// with nothing) and watched-file notifications.
func clientCapabilities() map[string]any {
	return map[string]any{
		"textDocument": map[string]any{
			"synchronization":    map[string]any{"dynamicRegistration": false, "didSave": false},
			"publishDiagnostics": map[string]any{"relatedInformation": false, "versionSupport": true},
		},
		"workspace": map[string]any{
			"workspaceFolders":       true,
			"configuration":          true,
			"didChangeWatchedFiles":  map[string]any{"dynamicRegistration": true},
			"didChangeConfiguration": map[string]any{"dynamicRegistration": false},
		},
		"window": map[string]any{"workDoneProgress": false},
	}
}
