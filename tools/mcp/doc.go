// Package mcp makes tern a Model Context Protocol client: it starts the
// servers the user configured (stdio commands and Streamable HTTP URLs) in
// the background and offers their tools to the model as tools.External.
package mcp
