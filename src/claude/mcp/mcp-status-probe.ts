/**
 * One `claude` started only to be asked which MCP servers it runs: stream-json in and out, the `initialize`
 * control request, then `mcp_status` until no server is still connecting, then `end_session`. No user message is
 * ever written, so Claude Code sends no model request.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { RennetError } from "../../errors.js";
import { isRecord } from "../../json-record.js";
import type { Launcher } from "../../process/stdio-child.js";
import { ChildSession } from "../../session/child-session.js";
import { endSessionRequest } from "../stdin-messages.js";

/** One MCP server as Claude Code's `mcp_status` reports it (its configuration, which may hold secrets, is not kept). */
export interface ClaudeMcpServerStatus {
  name: string;
  /** `connected`, `pending`, `failed`, `needs-auth`, `disabled`, … as Claude Code says. */
  status: string;
  /** Where it was configured: `dynamic` (`--mcp-config`), `user`, `project`, `local`, … ; null when not said. */
  scope: string | null;
  transport: string | null;
  /** Claude Code's error text for a failed server. */
  error: string | null;
}

/** What one probe saw. */
export interface McpStatusObservation {
  /** `claude_code_version` of the `initialize` answer, when it has one. */
  version: string | null;
  servers: ClaudeMcpServerStatus[];
  /** True when servers were still `pending` at the deadline. */
  settled: boolean;
}

export interface McpStatusProbeOptions {
  launcher: Launcher;
  command: string;
  /** Claude's arguments (a turn's, without a prompt). */
  args: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  /** How long servers may stay `pending`. Default 15 s. */
  settleMs?: number;
  /** Deadline of each control request. Default 30 s. */
  requestMs?: number;
}

const POLL_MS = 200;

/**
 * Starts the probe, asks, ends the whole tree, and removes its temporary directory. Rejects with a
 * `RennetError`: `CLAUDE_MCP_STATUS_UNSUPPORTED` when this Claude Code does not answer `mcp_status`,
 * `CLAUDE_MCP_PROBE_FAILED` when it exits, closes its output or does not answer in time; or with `signal.reason`.
 */
export async function probeMcpStatus(options: McpStatusProbeOptions): Promise<McpStatusObservation> {
  const tmpDir = await mkdtemp(path.join(options.env.CLAUDE_CODE_TMPDIR ?? os.tmpdir(), "rennet-claude-"));
  const session = ChildSession.start({
    launcher: options.launcher,
    spec: {
      command: options.command,
      args: [...options.args],
      cwd: options.cwd,
      env: { ...options.env, CLAUDE_CODE_TMPDIR: tmpDir },
    },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const control = new ControlChannel(session, options.requestMs ?? 30_000, options.signal);
  try {
    const init = await control.request("initialize", { subtype: "initialize" });
    const version =
      isRecord(init) && typeof init.claude_code_version === "string" ? init.claude_code_version : null;
    const deadline = Date.now() + (options.settleMs ?? 15_000);
    for (;;) {
      const servers = parseServers(await control.request("mcp_status", { subtype: "mcp_status" }));
      const pending = servers.some((server) => server.status === "pending");
      if (!pending || Date.now() >= deadline) return { version, servers, settled: !pending };
      await sleep(POLL_MS, options.signal);
    }
  } finally {
    control.dispose();
    session.write(endSessionRequest("rennet-mcp-probe-end", "rennet: MCP status read"));
    session.endInput();
    await session.end({ graceMs: 2000 });
    await rm(tmpDir, { recursive: true, force: true, maxRetries: 3, retryDelay: 50 });
  }
}

/** Control requests to the child and their answers, by request id. */
class ControlChannel {
  readonly #session: ChildSession;
  readonly #timeoutMs: number;
  readonly #signal: AbortSignal | undefined;
  readonly #waiting = new Map<string, { resolve(value: unknown): void; reject(error: unknown): void }>();
  #failure: Error | null = null;
  #next = 0;

  constructor(session: ChildSession, timeoutMs: number, signal: AbortSignal | undefined) {
    this.#session = session;
    this.#timeoutMs = timeoutMs;
    this.#signal = signal;
    session.read({
      frame: (frame) => this.#onFrame(frame),
      invalid: () => undefined,
      closed: () => this.#fail(this.#departed()),
    });
  }

  /** Resolves with the `response` of a success answer; rejects for an error answer, a departure, a deadline. */
  request(name: string, request: Record<string, unknown>): Promise<unknown> {
    if (this.#failure) return Promise.reject(this.#failure);
    this.#signal?.throwIfAborted();
    const id = `rennet-mcp-probe-${++this.#next}`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => this.#settle(id, null, failed(`claude did not answer ${name} within ${this.#timeoutMs} ms`)),
        this.#timeoutMs,
      );
      const abort = (): void => this.#settle(id, null, this.#signal?.reason);
      this.#signal?.addEventListener("abort", abort, { once: true });
      const done = (): void => {
        clearTimeout(timer);
        this.#signal?.removeEventListener("abort", abort);
      };
      this.#waiting.set(id, {
        resolve: (value) => (done(), resolve(value)),
        reject: (error) => (done(), reject(error instanceof Error ? error : new Error(String(error)))),
      });
      this.#session.write({ type: "control_request", request_id: id, request });
    });
  }

  dispose(): void {
    this.#fail(failed("the MCP status probe ended"));
  }

  #onFrame(frame: Record<string, unknown>): void {
    if (frame.type !== "control_response" || !isRecord(frame.response)) return;
    const answer = frame.response;
    const id = typeof answer.request_id === "string" ? answer.request_id : "";
    if (answer.subtype === "success") this.#settle(id, answer.response ?? null, null);
    else {
      const text = typeof answer.error === "string" ? answer.error : JSON.stringify(answer);
      this.#settle(id, null, refusal(text));
    }
  }

  #settle(id: string, value: unknown, error: unknown): void {
    const waiter = this.#waiting.get(id);
    if (!waiter) return;
    this.#waiting.delete(id);
    if (error !== null) waiter.reject(error);
    else waiter.resolve(value);
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const id of [...this.#waiting.keys()]) this.#settle(id, null, error);
  }

  #departed(): Error {
    const tail = this.#session.stderrTail().trim();
    return failed(
      `claude ended before it answered${tail === "" ? "" : `: ${tail.split("\n").slice(-3).join(" / ")}`}`,
    );
  }
}

/** A control request claude refused: this release lacks it, or it failed. Pure. */
function refusal(text: string): RennetError {
  if (/unsupported control request/i.test(text))
    return new RennetError(
      "CLAUDE_MCP_STATUS_UNSUPPORTED",
      `this Claude Code does not report its MCP servers (${text}); update Claude Code`,
    );
  return failed(`claude refused a control request: ${text}`);
}

function failed(message: string): RennetError<"CLAUDE_MCP_PROBE_FAILED"> {
  return new RennetError("CLAUDE_MCP_PROBE_FAILED", message);
}

/** The servers of an `mcp_status` answer (`{mcpServers:[…]}`); anything else is a probe failure. Pure. */
function parseServers(response: unknown): ClaudeMcpServerStatus[] {
  if (!isRecord(response) || !Array.isArray(response.mcpServers))
    throw failed(`claude answered mcp_status with ${JSON.stringify(response)?.slice(0, 200)}`);
  return response.mcpServers.filter(isRecord).map((server) => ({
    name: typeof server.name === "string" ? server.name : "(unnamed)",
    status: typeof server.status === "string" ? server.status : "unknown",
    scope:
      typeof server.scope === "string"
        ? server.scope
        : typeof server.source === "string"
          ? server.source
          : null,
    transport: typeof server.transport === "string" ? server.transport : null,
    error: typeof server.error === "string" ? server.error : null,
  }));
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", abort);
      resolve();
    }, ms);
    const abort = (): void => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener("abort", abort, { once: true });
  });
}
