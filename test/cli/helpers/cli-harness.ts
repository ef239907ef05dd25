import { tmpdir } from "node:os";
import { Readable, Writable } from "node:stream";
import { vi } from "vitest";
import type { CliSignal, SignalSource } from "../../../src/cli/cli-io.js";
import type { Launcher } from "../../../src/process/stdio-child.js";
import { main } from "../../../src/cli/main.js";
import type { HarnessEvent } from "../../../src/harness/events.js";
import { InMemoryAppServer } from "../../../src/testkit/in-memory-app-server.js";
import type { FakeScript } from "../../../src/testkit/fake-script.js";

/** A writable that keeps everything written to it as text. */
export class TextSink extends Writable {
  text = "";
  override _write(
    chunk: Buffer | string,
    _encoding: BufferEncoding,
    callback: (error?: Error | null) => void,
  ): void {
    this.text += typeof chunk === "string" ? chunk : chunk.toString("utf8");
    callback();
  }
}

/** A signal source the test fires by hand; counts live listeners. */
export class FakeSignals implements SignalSource {
  readonly #listeners = new Map<CliSignal, Set<() => void>>();

  on(signal: CliSignal, listener: () => void): () => void {
    const set = this.#listeners.get(signal) ?? new Set();
    this.#listeners.set(signal, set);
    set.add(listener);
    return () => {
      set.delete(listener);
    };
  }

  emit(signal: CliSignal): void {
    for (const listener of [...(this.#listeners.get(signal) ?? [])]) listener();
  }

  get listenerCount(): number {
    let count = 0;
    for (const set of this.#listeners.values()) count += set.size;
    return count;
  }
}

/** What an in-process run of `main()` gets besides its argv: its stdin text, environment, directory, terminals. */
export interface MainRunOptions {
  /** Text on stdin (ends after it); `null` = a stdin that never ends. Default: empty. */
  stdin?: string | null;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Which streams are terminals. Default: none. */
  isTTY?: { stdin?: boolean; stdout?: boolean; stderr?: boolean };
  interruptGraceMs?: number;
}

/**
 * One in-process run of `main()` with text sinks for stdout and stderr and hand-fired signals; `launcher` (a fake
 * harness's) replaces spawning the real executable, `env` defaults to empty.
 */
export function startMain(argv: string[], options: MainRunOptions, launcher: Launcher | undefined) {
  const stdout = new TextSink();
  const stderr = new TextSink();
  const signals = new FakeSignals();
  const stdin =
    options.stdin === null
      ? new Readable({ read() {} })
      : Readable.from(options.stdin === undefined ? [] : [Buffer.from(options.stdin)]);
  const exit = main(argv, {
    stdin,
    stdout,
    stderr,
    env: options.env ?? {},
    cwd: options.cwd ?? tmpdir(),
    isTTY: { stdin: false, stdout: false, stderr: false, ...options.isTTY },
    signals,
    ...(launcher !== undefined ? { launcher } : {}),
    ...(options.interruptGraceMs !== undefined ? { interruptGraceMs: options.interruptGraceMs } : {}),
  });
  return {
    stdout,
    stderr,
    signals,
    exit,
    /** The JSON events printed so far (each stdout line parsed). */
    events: (): HarnessEvent[] => parseJsonLines(stdout.text),
    /** Resolves once stdout contains `text`. */
    waitForStdout: (text: string) =>
      vi.waitFor(
        () => {
          if (!stdout.text.includes(text)) throw new Error(`stdout does not contain ${text} yet`);
        },
        { timeout: 10_000, interval: 5 },
      ),
  };
}

export interface CliRunOptions extends MainRunOptions {
  script?: FakeScript;
}

/** One in-process run of `main()` against the in-memory fake app-server. */
export function startCli(argv: string[], options: CliRunOptions = {}) {
  const fake = new InMemoryAppServer(options.script ?? {});
  return { fake, ...startMain(argv, options, fake.launcher) };
}

export async function runCli(argv: string[], options: CliRunOptions = {}) {
  const started = startCli(argv, options);
  const code = await started.exit;
  return { ...started, code };
}

/** Parses stdout as JSON lines; throws on any line that is not a JSON object. */
export function parseJsonLines(text: string): HarnessEvent[] {
  if (text === "") return [];
  if (!text.endsWith("\n")) throw new Error("stdout does not end with a newline");
  return text
    .slice(0, -1)
    .split("\n")
    .map((line) => {
      const value: unknown = JSON.parse(line);
      if (typeof value !== "object" || value === null || Array.isArray(value))
        throw new Error(`not an object: ${line}`);
      return value as HarnessEvent;
    });
}

/** True when the text contains an SGR colour sequence. */
export function hasColour(text: string): boolean {
  // eslint-disable-next-line no-control-regex
  return /\x1b\[\d+(;\d+)*m/.test(text);
}
