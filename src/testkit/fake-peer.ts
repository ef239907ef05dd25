import type { Transport } from "../jsonl/transport.js";
import {
  FAKE_MODEL,
  FAKE_THREAD_ID,
  FAKE_TURN_ID,
  fakeSteps,
  type FakeChunk,
  type FakeChunkPart,
  type FakeDeparture,
  type FakeExit,
  type FakeReply,
  type FakeScript,
  type FakeStep,
} from "./fake-script.js";
import { isRecord } from "../json-record.js";
import { checkFakeScript, FAKE_APP_SERVER_SCRIPT } from "./fake-script-check.js";
import { setImmediate as nextTurn, setTimeout as sleep } from "node:timers/promises";

/** What the hosting side (in memory or a real process) does when the script exits or closes stdout. */
export interface FakePeerHost {
  /** Writes raw text to the client, bypassing serialization. */
  writeRaw(text: string): void;
  /**
   * Writes raw bytes to the client in one write. Without it, chunks are written with `writeRaw` as UTF-8 text,
   * which cannot carry invalid UTF-8.
   */
  writeBytes?(bytes: Uint8Array): void;
  closeStdout(): void;
  /** Called with every frame the client sent, as it arrives. */
  received?(frame: Record<string, unknown>): void;
  /** Ends the fake with this code or signal, letting go of stdout in the order `stdout` says. */
  exit(code: number | null, signal: string | null, options: { stdout: FakeDeparture }): void;
}

/**
 * The app-server side of the fake: answers requests, runs the script's steps and records what the client
 * sent. Shared by the in-memory fake and the executable fake.
 */
export class FakePeer {
  /** Every frame the client sent, in order. */
  readonly received: Record<string, unknown>[] = [];
  readonly #transport: Transport;
  readonly #script: FakeScript;
  readonly #host: FakePeerHost;
  #replyWaiters = new Map<string, () => void>();
  #repliedIds = new Set<string>();
  /** The latest id of each method the client requested, for `duplicateResponse`. */
  #lastRequestIds = new Map<string, number | string>();
  #hung = false;
  #done = false;
  /**
   * Set while a chunk cut into several writes is being written: other writes (a reply served meanwhile) wait
   * here, so that they never land inside one of its lines.
   */
  #held: (() => void)[] | null = null;
  #chunkWritten: Promise<void> = Promise.resolve();
  /** Aborted when the fake is gone: its pending delays end at once (no timer outlives the fake). */
  readonly #gone = new AbortController();

  /** Throws `FAKE_SCRIPT_INVALID` for a script it cannot follow (see `checkFakeScript`). */
  constructor(transport: Transport, script: FakeScript, host: FakePeerHost) {
    checkFakeScript(script, FAKE_APP_SERVER_SCRIPT);
    this.#transport = transport;
    this.#script = script;
    this.#host = host;
    transport.start({
      frame: (frame) => this.#onFrame(frame),
      invalid: () => {},
      closed: (reason) => {
        if (reason.type === "eof" && (this.#script.onStdinEnd ?? "exit") === "exit" && !this.#hung) {
          this.#finish({ code: 0 });
        }
      },
    });
  }

  get threadId(): string {
    return this.#script.threadId ?? FAKE_THREAD_ID;
  }

  get turnId(): string {
    return this.#script.turnId ?? FAKE_TURN_ID;
  }

  /** Client requests of one method, in order. */
  requestsOf(method: string): Record<string, unknown>[] {
    return this.received.filter((f) => f.method === method && "id" in f);
  }

  #onFrame(frame: Record<string, unknown>): void {
    if (this.#hung || this.#done) return;
    this.received.push(frame);
    this.#host.received?.(frame);
    const { id, method } = frame;
    if (typeof method !== "string") {
      // a reply to one of our server requests
      if (typeof id === "number" || typeof id === "string") {
        this.#repliedIds.add(String(id));
        this.#replyWaiters.get(String(id))?.();
      }
      return;
    }
    if (id === undefined) return; // a client notification (initialized)
    this.#lastRequestIds.set(method, id as number | string);
    // Like the real app-server, each request is served on its own: a `turn/interrupt` is answered while the
    // turn's steps are still running (a delay in `turn` must not hold the interrupt back).
    void this.#answer(id as number | string, method, frame.params).catch(() => {});
  }

  async #answer(id: number | string, method: string, params: unknown): Promise<void> {
    const replies = this.#script.replies ?? {};
    const reply = Object.hasOwn(replies, method)
      ? (replies[method] as FakeReply)
      : this.#defaultReply(method, params);
    if ("noReply" in reply) return;
    if ("exit" in reply || "closeStdout" in reply) {
      while (this.#held) await this.#chunkWritten;
      if ("exit" in reply) this.#finish(reply.exit);
      else this.#host.closeStdout();
      return;
    }
    if (reply.delayMs) await this.#sleep(reply.delayMs);
    if (this.#halted) return;
    const response = "error" in reply ? { id, error: reply.error } : { id, result: reply.result };
    const along = this.#script.alongReply;
    if (along && Object.hasOwn(along, method)) {
      await this.#writeChunk(along[method] as FakeChunk, `${JSON.stringify(response)}\n`);
    } else this.#write(() => this.#transport.send(response));
    if ("error" in reply) return;
    if (method === "initialize") await this.#run(this.#script.afterInitialize ?? []);
    if (method === "turn/start") await this.#run(this.#script.turn ?? []);
    if (method === "turn/steer") await this.#run(this.#script.onSteer ?? []);
    if (method === "turn/interrupt") {
      await this.#run(
        this.#script.onInterrupt ?? [
          fakeSteps.turnCompleted("interrupted", { threadId: this.threadId, turnId: this.turnId }),
        ],
      );
    }
  }

  /** What codex answers by default; a thread's `cwd` is the request's, as codex answers it (else `/tmp`). */
  #defaultReply(method: string, params: unknown): FakeReply {
    const cwd = isRecord(params) && typeof params.cwd === "string" ? params.cwd : "/tmp";
    switch (method) {
      case "initialize":
        return {
          result: {
            userAgent: "codex_cli_rs/0.171.0 (fake)",
            codexHome: "/tmp/fake-codex-home",
            platformFamily: "unix",
            platformOs: "linux",
          },
        };
      case "thread/start":
      case "thread/resume":
        return {
          result: {
            thread: { id: this.threadId, cwd },
            model: this.#script.model ?? FAKE_MODEL,
            modelProvider: "fake",
            cwd,
          },
        };
      case "turn/start":
        return { result: { turn: { id: this.turnId, items: [], status: "inProgress", error: null } } };
      case "turn/interrupt":
        return { result: {} };
      case "turn/steer":
        return { result: { turnId: this.turnId } };
      case "config/read":
        return { result: { config: {}, origins: {} } };
      default:
        return { error: { code: -32601, message: `fake app-server: method not found: ${method}` } };
    }
  }

  async #run(steps: FakeStep[]): Promise<void> {
    for (const step of steps) {
      // a cut chunk being written (by another request's steps) finishes first: its lines stay whole
      while (this.#held) await this.#chunkWritten;
      if (this.#halted) return;
      if ("send" in step) this.#write(() => this.#transport.send(step.send));
      else if ("raw" in step) this.#write(() => this.#host.writeRaw(step.raw));
      else if ("delayMs" in step) await this.#sleep(step.delayMs);
      else if ("exit" in step) this.#finish(step.exit);
      else if ("exitKeepStdout" in step) this.#finish({ ...step.exitKeepStdout, stdout: "keep-open" });
      else if ("closeStdout" in step) this.#host.closeStdout();
      else if ("awaitReply" in step) await this.#awaitReply(String(step.awaitReply));
      else if ("hang" in step) this.#hung = true;
      else if ("chunk" in step) await this.#writeChunk(step.chunk);
      else if ("userMessage" in step) this.#echoInput(step.userMessage);
    }
  }

  /** The `userMessage` item codex writes for the latest `turn/start`'s input, started and completed. */
  #echoInput(itemId: string): void {
    const params = this.requestsOf("turn/start").at(-1)?.params;
    const input = isRecord(params) && Array.isArray(params.input) ? params.input : [];
    const content = input.map((part: unknown) =>
      isRecord(part) && part.type === "text" ? { text_elements: [], ...part } : part,
    );
    const item = { type: "userMessage", id: itemId, clientId: null, content };
    const ids = { threadId: this.threadId, turnId: this.turnId };
    for (const phase of ["started", "completed"] as const)
      this.#write(() => this.#transport.send(fakeSteps.item(phase, item, ids).send));
  }

  async #writeChunk(chunk: FakeChunk, prefix = ""): Promise<void> {
    const bytes = Buffer.concat([Buffer.from(prefix, "utf8"), ...chunk.parts.map((p) => this.#partBytes(p))]);
    const cuts = [...new Set(chunk.cuts ?? [])]
      .filter((c) => c > 0 && c < bytes.length)
      .sort((a, b) => a - b);
    if (cuts.length === 0) {
      this.#write(() => this.#writeBytes(bytes));
      return;
    }
    while (this.#held) await this.#chunkWritten;
    const held: (() => void)[] = [];
    this.#held = held;
    let release!: () => void;
    this.#chunkWritten = new Promise((resolve) => (release = resolve));
    let start = 0;
    for (const end of [...cuts, bytes.length]) {
      if (start > 0) await nextTurn();
      if (this.#halted) break;
      this.#writeBytes(bytes.subarray(start, end));
      start = end;
    }
    this.#held = null;
    if (!this.#halted) for (const write of held) write();
    release();
  }

  /** Writes now, or after the cut chunk being written. */
  #write(write: () => void): void {
    if (this.#held) this.#held.push(write);
    else write();
  }

  #partBytes(part: FakeChunkPart): Buffer {
    if ("send" in part) return Buffer.from(`${JSON.stringify(part.send)}\n`, "utf8");
    if ("raw" in part) return Buffer.from(part.raw, "utf8");
    if ("rawBase64" in part) return Buffer.from(part.rawBase64, "base64");
    if ("paddedFrame" in part) {
      const skeleton = '{"method":"rennet/fake/padding","params":{"pad":""}}';
      const pad = "x".repeat(Math.max(0, part.paddedFrame - skeleton.length));
      return Buffer.from(`{"method":"rennet/fake/padding","params":{"pad":"${pad}"}}\n`, "utf8");
    }
    const id = this.#lastRequestIds.get(part.duplicateResponse);
    if (id === undefined) return Buffer.alloc(0);
    return Buffer.from(`${JSON.stringify({ id, result: { duplicate: true } })}\n`, "utf8");
  }

  #writeBytes(bytes: Uint8Array): void {
    if (this.#host.writeBytes) this.#host.writeBytes(bytes);
    else this.#host.writeRaw(Buffer.from(bytes).toString("utf8"));
  }

  #awaitReply(id: string): Promise<void> {
    if (this.#repliedIds.has(id)) return Promise.resolve();
    return new Promise((resolve) => this.#replyWaiters.set(id, resolve));
  }

  /**
   * The hosting process is gone (killed): pending delays end and no further step or reply runs. What the
   * client sent is still recorded.
   */
  stop(): void {
    this.#gone.abort();
  }

  /** No step or reply runs any more: the script hung or exited, or the host stopped the fake. */
  get #halted(): boolean {
    return this.#hung || this.#done || this.#gone.signal.aborted;
  }

  /** Waits `ms`, or less when the fake stops meanwhile (callers check `#halted` after it). */
  #sleep(ms: number): Promise<void> {
    return sleep(ms, undefined, { signal: this.#gone.signal }).catch(() => undefined);
  }

  #finish(exit: FakeExit): void {
    if (this.#done) return;
    this.#done = true;
    this.#gone.abort();
    this.#host.exit(exit.code ?? null, exit.signal ?? null, { stdout: exit.stdout ?? "close-first" });
  }
}
