package main

const rootUsage = `tern is a terminal coding agent for any OpenAI-compatible gateway.

Usage:
  tern [flags]                start the interactive interface in this directory
  tern --continue             continue the session of this workspace used last (-c)
  tern --resume ID            continue the session ID (-r; an id prefix is enough)
  tern run [flags] PROMPT     run one turn without the interface; print the answer
  tern run [flags] -          the same, reading the prompt from stdin (also when stdin is a pipe)
  tern acp [flags]            serve editors over the Agent Client Protocol on stdio (docs/acp.md)
  tern sessions [--json]      list the sessions of this workspace
  tern sessions export ID [PATH]
                              write a session as Markdown to stdout or PATH
  tern doctor [flags]         check the configuration and the gateway
  tern mcp list|add|remove|approve
                              the MCP servers whose tools the model may use
  tern hooks [list|approve]   the configured hooks; approve this workspace's .tern/config.toml
  tern --version              print the version

Interface flags:
  --theme THEME           auto (from the terminal's background), dark or light (default auto)
  -c, --continue          continue the session of this workspace used last
  -r, --resume ID         continue the session ID; without ID, pick one from a list
  --fork                  with --continue or --resume: continue in a new session, leaving the old one as it was

` + commonFlagsUsage + `
Environment:
  LLM_BASE_URL, LLM_API_KEY, LLM_MODEL   the gateway (fallbacks: OPENAI_BASE_URL, OPENAI_API_KEY, OPENAI_MODEL)
  MOCK=1                                 use the offline scripted provider
  TERN_HOME                              tern's directory, holding config.toml, history and sessions/ (default ~/.tern)
Without an API key tern runs on the offline scripted provider (a server on
localhost needs no key). Precedence: flags > environment > config file > defaults.

Exit status: 0 done, 1 failed, 2 usage or configuration error, 3 a budget
limit (--max-cost, --max-requests, --max-duration) stopped 'tern run',
130 interrupted.
More: README.md, docs/cli.md, docs/config.md, docs/protocol.md.
`

const commonFlagsUsage = `Flags (every command):
  --base-url URL          gateway base URL, usually ending in /v1 (default https://api.openai.com/v1)
  --model ID              model id, sent to the gateway as is (default gpt-4o-mini)
  --mock                  use the offline scripted provider
  --approval POLICY       ask | auto-edit | full-auto | read-only (default ask)
  --max-steps N           model requests per turn (default 50)
  --max-attempts N        tries per model request when the gateway fails in a retryable way (default 4)
  --dangerously-skip-approvals
                          run even the always-ask commands (rm -rf outside the workspace, git push --force, ...) unasked
  --sandbox on|off        confine shell commands with Landlock on Linux: writes only in the workspace, a session
                          TMPDIR and the toolchain caches; no reads of ~/.ssh, ~/.aws, ~/.gnupg (default on)
  --no-network            also deny shell commands the network (Linux 6.7 or later)
  --effort LEVEL          reasoning effort (low, medium, high, ...), sent only to models that reason
`

const runUsage = `Usage: tern run [flags] PROMPT
       tern run [flags] -        (prompt from stdin; also used when stdin is a pipe and no PROMPT is given)

Runs one turn, with its tool calls, without the interface. The final answer
goes to stdout, cleaned of terminal control sequences; progress lines go to
stderr when it is a terminal. Nobody can answer approval requests, so under
--approval ask (and for shell commands under auto-edit) they are denied;
use --approval auto-edit or full-auto, or allow rules in config.toml.

  --json                  print JSON Lines events on stdout instead (docs/protocol.md)
  -c, --continue          continue the session of this workspace used last, instead of starting one
  --session ID            continue the session ID (an id prefix is enough)
  --max-cost USD          stop the turn once it cost this much (needs the model's prices in config.toml)
  --max-requests N        stop the turn after N model requests
  --max-duration D        stop the turn after D (e.g. 10m); a running request or tool is interrupted
  --image PATH            attach an image (png, jpeg, gif, webp) to the prompt; repeatable. Scaled to
                          2048 px on the long side and 5 MB; the model must accept images

Every run is recorded as a session under $TERN_HOME/sessions (docs/sessions.md).

` + commonFlagsUsage + `
Exit status: 0 done, 1 the turn failed (gateway error after retries, step
limit), 2 usage or configuration error, 3 a budget limit stopped the turn,
130 interrupted (SIGINT).
`

const doctorUsage = `Usage: tern doctor [flags]

Checks each setting (and where it came from), the approval policy and rules,
that the gateway answers GET /models, that it offers the model, and that a
one-token streaming request succeeds. Each failure comes with its fix; the
exit status is 1 when a check fails.

  --timeout D             bound for each network check (default 5s)

` + commonFlagsUsage

const sessionsUsage = `Usage: tern sessions [--json] [--all]
       tern sessions export ID [PATH]

Lists the recorded sessions of this workspace, newest first: date, number of
messages, model, id and title (the first prompt). Continue one with
'tern --resume ID' or 'tern run --session ID'.

  --json                  print a JSON array instead
  --all                   list the sessions of every workspace

'export' writes the conversation of session ID (an id prefix is enough) as
Markdown to stdout, or to PATH.

Sessions live in $TERN_HOME/sessions; docs/sessions.md describes the format.
`
