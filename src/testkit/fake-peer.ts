import type { Transport } from "../jsonl/transport.js";
import {
  FAKE_MODEL,
  FAKE_THREAD_ID,
  FAKE_TURN_ID,
  fakeSteps,
  type FakeReply,
  type FakeScript,
  type FakeStep,
} from "./fake-script.js";
import { setTimeout as sleep } from "node:timers/promises";

/** What the hosting side (in memory or a real process) does when the script exits or closes stdout. */
export interface FakePeerHost {
  /** Writes raw text to the client, bypassing serialization. */
  writeRaw(text: string): void;
  closeStdout(): void;
  /** Called with every frame the client sent, as it arrives. */
  received?(frame: Record<string, unknown>): void;
  exit(code: number | null, signal: string | null, options: { closeStdout: boolean }): void;
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
  #hung = false;
  #done = false;

  constructor(transport: Transport, script: FakeScript, host: FakePeerHost) {
    this.#transport = transport;
    this.#script = script;
    this.#host = host;
    transport.start({
      frame: (frame) => this.#onFrame(frame),
      invalid: () => {},
      closed: (reason) => {
        if (reason.type === "eof" && (this.#script.onStdinEnd ?? "exit") === "exit" && !this.#hung) {
          this.#finish(0, null, true);
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
    // Like the real app-server, each request is served on its own: a `turn/interrupt` is answered while the
    // turn's steps are still running (a delay in `turn` must not hold the interrupt back).
    void this.#answer(id as number | string, method).catch(() => {});
  }

  async #answer(id: number | string, method: string): Promise<void> {
    const reply = this.#script.replies?.[method] ?? this.#defaultReply(method);
    if ("noReply" in reply) return;
    if (reply.delayMs) await sleep(reply.delayMs);
    if (this.#hung || this.#done) return;
    if ("error" in reply) this.#transport.send({ id, error: reply.error });
    else this.#transport.send({ id, result: reply.result });
    if ("error" in reply) return;
    if (method === "initialize") await this.#run(this.#script.afterInitialize ?? []);
    if (method === "turn/start") await this.#run(this.#script.turn ?? []);
    if (method === "turn/interrupt") {
      await this.#run(
        this.#script.onInterrupt ?? [
          fakeSteps.turnCompleted("interrupted", { threadId: this.threadId, turnId: this.turnId }),
        ],
      );
    }
  }

  #defaultReply(method: string): FakeReply {
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
        return {
          result: {
            thread: { id: this.threadId, cwd: "/tmp" },
            model: this.#script.model ?? FAKE_MODEL,
            modelProvider: "fake",
            cwd: "/tmp",
          },
        };
      case "turn/start":
        return { result: { turn: { id: this.turnId, items: [], status: "inProgress", error: null } } };
      case "turn/interrupt":
        return { result: {} };
      case "config/read":
        return { result: { config: {}, origins: {} } };
      default:
        return { error: { code: -32601, message: `fake app-server: method not found: ${method}` } };
    }
  }

  async #run(steps: FakeStep[]): Promise<void> {
    for (const step of steps) {
      if (this.#hung || this.#done) return;
      if ("send" in step) this.#transport.send(step.send);
      else if ("raw" in step) this.#sendRaw(step.raw);
      else if ("delayMs" in step) await sleep(step.delayMs);
      else if ("exit" in step) this.#finish(step.exit.code ?? null, step.exit.signal ?? null, true);
      else if ("exitKeepStdout" in step) {
        this.#finish(step.exitKeepStdout.code ?? null, step.exitKeepStdout.signal ?? null, false);
      } else if ("closeStdout" in step) this.#host.closeStdout();
      else if ("awaitReply" in step) await this.#awaitReply(String(step.awaitReply));
      else if ("hang" in step) this.#hung = true;
    }
  }

  #sendRaw(text: string): void {
    this.#host.writeRaw(text);
  }

  #awaitReply(id: string): Promise<void> {
    if (this.#repliedIds.has(id)) return Promise.resolve();
    return new Promise((resolve) => this.#replyWaiters.set(id, resolve));
  }

  #finish(code: number | null, signal: string | null, closeStdout: boolean): void {
    if (this.#done) return;
    this.#done = true;
    this.#host.exit(code, signal, { closeStdout });
  }
}
