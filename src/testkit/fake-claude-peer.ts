import type { Transport } from "../jsonl/transport.js";
import { checkFakeScript, FAKE_CLAUDE_SCRIPT } from "./fake-script-check.js";
import { setTimeout as sleep } from "node:timers/promises";
import type { FakeClaudeScript, FakeClaudeStep, FakeControlReply } from "./fake-claude-script.js";
import { claudeSteps, FAKE_CLAUDE_SESSION_ID } from "./fake-claude-steps.js";

/** What the hosting side (in memory or a real process) does for the fake. */
export interface FakeClaudePeerHost {
  /** Writes text to the client's view of stdout, bypassing serialization. */
  writeRaw(text: string): void;
  writeStderr(text: string): void;
  closeStdout(): void;
  /** Called with every line the client wrote, as it arrives. */
  received?(line: Record<string, unknown>): void;
  /** Ends the fake (stdout closes first). */
  exit(code: number | null, signal: string | null): void;
  /** The fake's command-line arguments. */
  args?: readonly string[];
}

/**
 * The `claude` side of the fake: runs the script's steps after the first user message, answers control requests
 * (`interrupt` cuts the running turn short and runs `onInterrupt`), exits on stdin EOF as Claude Code does, and
 * records every line the client wrote. Shared by the in-memory fake and the executable one.
 */
export class FakeClaudePeer {
  /** Every line the client wrote, in order. */
  readonly received: Record<string, unknown>[] = [];
  readonly #script: FakeClaudeScript;
  readonly #host: FakeClaudePeerHost;
  #userMessages = 0;
  /** Turns queued or running. */
  #pendingTurns = 0;
  /** The running turn: aborted by an interrupt (which then runs `onInterrupt`) or `end_session`. */
  #turn: { abort: AbortController; afterInterrupt: readonly FakeClaudeStep[] | null } | null = null;
  /** Turns run one after the other, as Claude queues user messages. */
  #queue: Promise<void> = Promise.resolve();
  #answered = new Map<string, () => void>();
  #answeredIds = new Set<string>();
  /** The client's answers to this fake's control requests, by request id. */
  readonly #responses = new Map<string, Record<string, unknown>>();
  #lastResultIsError = false;
  /** The session id of the first `system/init` written: the id every line of the session carries. */
  #sessionId: string | null = null;
  /** Steers (user messages with a uuid after the first) not yet taken in. */
  #steers: { uuid: string; line: Record<string, unknown>; folded: boolean }[] = [];
  #steerArrived: (() => void) | null = null;
  #stdinEnded = false;
  #hung = false;
  #done = false;
  readonly #gone = new AbortController();
  /** Launched with a `--json-schema` it takes: its init lines list `StructuredOutput`. */
  readonly #offersStructuredOutput: boolean;

  /** Throws `FAKE_SCRIPT_INVALID` for a script it cannot follow (see `checkFakeScript`). */
  constructor(transport: Transport, script: FakeClaudeScript, host: FakeClaudePeerHost) {
    checkFakeScript(script, FAKE_CLAUDE_SCRIPT);
    this.#script = script;
    this.#host = host;
    this.#offersStructuredOutput =
      script.refuseSchema !== true && (host.args ?? []).some((arg) => arg.startsWith("--json-schema="));
    // after the constructor returned, so that the host holds the peer before a startup step reaches it
    void Promise.resolve()
      .then(() => this.#run(script.startup ?? [], this.#gone.signal))
      .then(() => {
        if (this.#halted) return;
        transport.start({
          frame: (line) => this.#onLine(line),
          invalid: (_message, line) => this.#onInvalidLine(line),
          closed: (reason) => {
            if (reason.type === "eof") this.#onStdinEnd();
          },
        });
      });
  }

  /** Lines the client wrote of one `type` (`user`, `control_request`, `control_response`). */
  linesOf(type: string): Record<string, unknown>[] {
    return this.received.filter((line) => line.type === type);
  }

  /** The host is gone (killed): pending steps end and nothing more runs. */
  stop(): void {
    this.#gone.abort();
  }

  get #halted(): boolean {
    return this.#hung || this.#done || this.#gone.signal.aborted;
  }

  #onLine(line: Record<string, unknown>): void {
    if (this.#halted) return;
    this.received.push(line);
    this.#host.received?.(line);
    if (line.type === "user") this.#onUserMessage(line);
    else if (line.type === "control_request") void this.#onControlRequest(line);
    else if (line.type === "control_response") {
      const response = line.response as Record<string, unknown> | undefined;
      const id = typeof response?.request_id === "string" ? response.request_id : "";
      this.#answeredIds.add(id);
      if (response !== undefined) this.#responses.set(id, response);
      this.#answered.get(id)?.();
    }
  }

  /** Claude Code exits 1 on a stdin line that is not JSON, naming it on stderr. */
  #onInvalidLine(line: string): void {
    if (this.#halted) return;
    this.#host.writeStderr(
      `Error parsing streaming input line (type=unknown, ${line.length} chars): SyntaxError\n`,
    );
    this.#finish(1, null);
  }

  #onUserMessage(line: Record<string, unknown>): void {
    this.#userMessages += 1;
    const uuid = typeof line.uuid === "string" ? line.uuid : null;
    const steer = uuid !== null && this.#userMessages > 1 ? { uuid, line, folded: false } : null;
    if (steer !== null) {
      this.#lifecycle(steer.uuid, "queued");
      this.#steers.push(steer);
      this.#steerArrived?.();
    }
    const steps =
      this.#userMessages === 1
        ? (this.#script.turn ?? claudeSteps.textTurn("ok"))
        : (this.#script.nextTurn ?? []);
    this.#pendingTurns += 1;
    this.#queue = this.#queue.then(async () => {
      if (steer?.folded) {
        this.#pendingTurns -= 1;
        if (this.#stdinEnded) this.#exitAfterEof();
        return;
      }
      if (steer !== null) {
        this.#steers = this.#steers.filter((s) => s !== steer);
        this.#lifecycle(steer.uuid, "started");
      }
      const turn = { abort: new AbortController(), afterInterrupt: null as readonly FakeClaudeStep[] | null };
      this.#turn = turn;
      await this.#run(steps, AbortSignal.any([turn.abort.signal, this.#gone.signal]));
      if (turn.afterInterrupt) await this.#run(turn.afterInterrupt, this.#gone.signal);
      this.#turn = null;
      this.#pendingTurns -= 1;
      if (this.#stdinEnded) this.#exitAfterEof();
    });
  }

  async #onControlRequest(line: Record<string, unknown>): Promise<void> {
    const id = typeof line.request_id === "string" ? line.request_id : "";
    const request = (line.request ?? {}) as Record<string, unknown>;
    const subtype = typeof request.subtype === "string" ? request.subtype : "";
    const replies = this.#script.controlReplies ?? {};
    const reply = Object.hasOwn(replies, subtype)
      ? (replies[subtype] as FakeControlReply)
      : defaultReply(subtype);
    if ("noReply" in reply) return;
    if (reply.delayMs)
      await sleep(reply.delayMs, undefined, { signal: this.#gone.signal }).catch(() => undefined);
    if (this.#halted) return;
    const response =
      "error" in reply
        ? { subtype: "error", request_id: id, error: reply.error }
        : { subtype: "success", request_id: id, response: reply.response };
    this.#write({ type: "control_response", response });
    if ("error" in reply) return;
    if (subtype === "end_session") {
      this.#turn?.abort.abort();
      this.#finish(0, null);
    } else if (subtype === "interrupt" && this.#turn !== null && this.#turn.afterInterrupt === null) {
      this.#turn.afterInterrupt = this.#script.onInterrupt ?? claudeSteps.interrupted();
      this.#turn.abort.abort();
    }
  }

  /**
   * Writes one stdout line. Not through the transport: it stops writing once stdin reached EOF, while Claude
   * Code goes on writing the running turn's lines after EOF.
   */
  /**
   * Writes one stdout line. As all of Claude Code's lines carry the session id of its `system/init`, a line with
   * the default {@link FAKE_CLAUDE_SESSION_ID} carries the first init's id when that init named another.
   */
  #write(line: Record<string, unknown>): void {
    if (line.type === "system" && line.subtype === "init" && typeof line.session_id === "string")
      this.#sessionId ??= line.session_id;
    if (line.session_id === FAKE_CLAUDE_SESSION_ID && this.#sessionId !== null)
      line = { ...line, session_id: this.#sessionId };
    const tools = line.type === "system" && line.subtype === "init" ? line.tools : undefined;
    if (this.#offersStructuredOutput && Array.isArray(tools) && !tools.includes("StructuredOutput"))
      line = { ...line, tools: [...(tools as unknown[]), "StructuredOutput"] };
    this.#host.writeRaw(`${JSON.stringify(line)}\n`);
  }

  #onStdinEnd(): void {
    this.#stdinEnded = true;
    this.#exitAfterEof();
  }

  #exitAfterEof(): void {
    if ((this.#script.onStdinEnd ?? "exit") === "exit" && !this.#halted && this.#pendingTurns === 0)
      this.#finish(this.#lastResultIsError ? 1 : 0, null);
  }

  async #run(steps: readonly FakeClaudeStep[], signal: AbortSignal): Promise<void> {
    for (const step of steps) {
      if (this.#halted || signal.aborted) return;
      if ("send" in step) {
        if (step.send.type === "result") this.#lastResultIsError = step.send.is_error === true;
        this.#write(step.send);
      } else if ("raw" in step) this.#host.writeRaw(step.raw);
      else if ("stderr" in step) this.#host.writeStderr(step.stderr);
      else if ("delayMs" in step) await sleep(step.delayMs, undefined, { signal }).catch(() => undefined);
      else if ("exit" in step) this.#finish(step.exit.code ?? null, step.exit.signal ?? null);
      else if ("closeStdout" in step) this.#host.closeStdout();
      else if ("hang" in step) this.#hung = true;
      else if ("awaitControlResponse" in step) await this.#awaitAnswer(step.awaitControlResponse, signal);
      else if ("awaitSteer" in step) await this.#awaitSteer(signal);
      else if ("takeSteers" in step) this.#takeSteers();
      else if ("mcpToolResult" in step) this.#write(this.#mcpToolResult(step.mcpToolResult));
    }
  }

  #lifecycle(uuid: string, state: string): void {
    this.#write({ type: "command_lifecycle", command_uuid: uuid, state, session_id: FAKE_CLAUDE_SESSION_ID });
  }

  #takeSteers(): void {
    for (const steer of this.#steers.splice(0)) {
      steer.folded = true;
      this.#write({ ...steer.line, session_id: FAKE_CLAUDE_SESSION_ID, isReplay: true });
      this.#lifecycle(steer.uuid, "started");
    }
  }

  #awaitSteer(signal: AbortSignal): Promise<void> {
    if (this.#steers.length > 0) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        this.#steerArrived = null;
        signal.removeEventListener("abort", done);
        resolve();
      };
      this.#steerArrived = done;
      signal.addEventListener("abort", done, { once: true });
    });
  }

  /** A `user` line whose `tool_result` carries the client's MCP answer (an error result when there is none). */
  #mcpToolResult(step: { requestId: string; toolUseId: string }): Record<string, unknown> {
    const answer = this.#responses.get(step.requestId);
    const body = answer?.response as Record<string, unknown> | undefined;
    const mcp = body?.mcp_response as Record<string, unknown> | undefined;
    const result = mcp?.result as Record<string, unknown> | undefined;
    const content = Array.isArray(result?.content) ? result.content : "no answer from the MCP server";
    const block = {
      tool_use_id: step.toolUseId,
      type: "tool_result",
      content,
      ...(result?.isError === true || result === undefined ? { is_error: true } : {}),
    };
    return {
      type: "user",
      message: { role: "user", content: [block] },
      parent_tool_use_id: null,
      session_id: FAKE_CLAUDE_SESSION_ID,
      tool_use_result: content,
    };
  }

  #awaitAnswer(id: string, signal: AbortSignal): Promise<void> {
    if (this.#answeredIds.has(id)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        this.#answered.delete(id);
        signal.removeEventListener("abort", done);
        resolve();
      };
      this.#answered.set(id, done);
      signal.addEventListener("abort", done, { once: true });
    });
  }

  #finish(code: number | null, signal: string | null): void {
    if (this.#done) return;
    this.#done = true;
    this.#gone.abort();
    this.#host.exit(code, signal);
  }
}

function defaultReply(subtype: string): FakeControlReply {
  switch (subtype) {
    case "interrupt":
      return { response: { still_queued: [] } };
    case "end_session":
      return { response: {} };
    case "initialize":
      return { response: { commands: [], models: [], account: {}, claude_code_version: "2.1.332" } };
    default:
      return { error: `Unsupported control request subtype: ${subtype}` };
  }
}
