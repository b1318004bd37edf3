// A small store of sessions, typical TypeScript for the benchmark.
import { EventEmitter } from "node:events";
import type { Readable } from "node:stream";

export type SessionId = string & { readonly __brand: "SessionId" };

export interface Message {
  role: "user" | "assistant" | "tool";
  content: string;
  tokens?: number;
  createdAt: Date;
}

export enum State {
  Idle = 0,
  Running = 1 << 0,
  Waiting = 1 << 1,
  Done = 0x10,
}

/**
 * Session keeps the messages of one conversation and the cost so far.
 */
export class Session extends EventEmitter {
  private readonly messages: Message[] = [];
  #cost = 0.0;
  static count = 0;

  constructor(public readonly id: SessionId, private limit = 1_000_000) {
    super();
    Session.count++;
  }

  get length(): number {
    return this.messages.length;
  }

  add(m: Message): void {
    if (m.content.length === 0 && m.role !== "tool") {
      throw new Error(`empty message from ${m.role} in ${this.id}`);
    }
    this.messages.push({ ...m, tokens: m.tokens ?? estimate(m.content) });
    this.#cost += (m.tokens ?? 0) * 1.5e-6;
    this.emit("message", m);
  }

  async *stream(src: Readable): AsyncGenerator<string, void, unknown> {
    for await (const chunk of src) {
      const text = typeof chunk === "string" ? chunk : chunk.toString("utf8");
      yield text.replace(/\r\n/g, "\n");
    }
  }

  summary(): Record<string, number> {
    const byRole: Record<string, number> = {};
    for (const { role, tokens = 0 } of this.messages) {
      byRole[role] = (byRole[role] || 0) + tokens;
    }
    return byRole;
  }
}

export function estimate(text: string): number {
  // Four characters a token is close enough for English and code.
  return Math.ceil(text.length / 4);
}

export const isDone = (s: State): boolean => (s & State.Done) !== 0;

function pick<T, K extends keyof T>(obj: T, ...keys: K[]): Pick<T, K> {
  const out = {} as Pick<T, K>;
  keys.forEach((k) => {
    out[k] = obj[k];
  });
  return out;
}

export default async function main(argv: string[] = process.argv.slice(2)): Promise<number> {
  const s = new Session("s-1" as SessionId);
  s.on("message", (m: Message) => console.log(`[${m.role}] ${m.content.slice(0, 40)}`));
  try {
    s.add({ role: "user", content: argv.join(" ") || "hello", createdAt: new Date() });
    const sum = s.summary();
    console.table(pick(sum, "user", "assistant"));
    return isDone(State.Done) ? 0 : 1;
  } catch (err: unknown) {
    console.error(err instanceof Error ? err.message : String(err));
    return 2;
  } finally {
    s.removeAllListeners();
  }
}
