// An editor written with the protocol's official TypeScript SDK
// (@agentclientprotocol/sdk, ClientSideConnection) drives `tern acp`:
// initialize, session/new, a prompt whose write asks for permission,
// session/set_mode, and the error for an unknown session. It prints one
// JSON object with what it saw; cmd/tern/acp_node_e2e_test.go checks it.
//
// Usage: node acp_client.mjs TERN_BINARY WORKSPACE   (ACP_SDK_DIR: the
// folder whose node_modules holds the SDK)
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { pathToFileURL } from "node:url";
import path from "node:path";

const [tern, workspace] = process.argv.slice(2);
const sdkEntry = path.join(process.env.ACP_SDK_DIR, "node_modules", "@agentclientprotocol", "sdk", "dist", "acp.js");
const acp = await import(pathToFileURL(sdkEntry).href);

const child = spawn(tern, ["acp"], { cwd: workspace, stdio: ["pipe", "pipe", "inherit"] });
const stream = acp.ndJsonStream(Writable.toWeb(child.stdin), Readable.toWeb(child.stdout));

const seen = { updates: [], permissions: [], text: "", toolKinds: [], diffs: [] };
const conn = new acp.ClientSideConnection(
  () => ({
    async requestPermission(params) {
      seen.permissions.push({ title: params.toolCall.title, options: params.options.map((o) => o.kind) });
      const allow = params.options.find((o) => o.kind === "allow_once");
      return { outcome: { outcome: "selected", optionId: allow.optionId } };
    },
    async sessionUpdate(params) {
      const u = params.update;
      seen.updates.push(u.sessionUpdate);
      if (u.sessionUpdate === "agent_message_chunk" && u.content.type === "text") seen.text += u.content.text;
      if (u.sessionUpdate === "tool_call") seen.toolKinds.push(u.kind);
      if (Array.isArray(u.content)) for (const c of u.content) if (c.type === "diff") seen.diffs.push({ path: c.path, newText: c.newText });
    },
    async readTextFile() {
      throw new Error("not offered");
    },
    async writeTextFile() {
      throw new Error("not offered");
    },
  }),
  stream,
);

const out = {};
try {
  const init = await conn.initialize({ protocolVersion: acp.PROTOCOL_VERSION, clientCapabilities: {} });
  out.protocolVersion = init.protocolVersion;
  out.agent = init.agentInfo?.name;
  out.loadSession = init.agentCapabilities?.loadSession;
  const session = await conn.newSession({ cwd: workspace, mcpServers: [] });
  out.modes = session.modes?.availableModes.map((m) => m.id);
  const resp = await conn.prompt({ sessionId: session.sessionId, prompt: [{ type: "text", text: "create hello.txt" }] });
  out.stopReason = resp.stopReason;
  await conn.setSessionMode({ sessionId: session.sessionId, modeId: "plan" });
  try {
    await conn.prompt({ sessionId: "no-such-session", prompt: [{ type: "text", text: "x" }] });
    out.unknownSession = "accepted";
  } catch (e) {
    out.unknownSession = e.code;
  }
} catch (e) {
  out.error = String(e?.message ?? e) + " " + JSON.stringify(e?.data ?? null);
}
Object.assign(out, seen);
process.stdout.write(JSON.stringify(out) + "\n");
child.stdin.end();
await new Promise((resolve) => child.on("exit", resolve));
