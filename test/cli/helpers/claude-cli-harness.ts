import { tmpdir } from "node:os";
import { Readable } from "node:stream";
import { main } from "../../../src/cli/main.js";
import type { HarnessEvent } from "../../../src/harness/events.js";
import { InMemoryClaude } from "../../../src/testkit/in-memory-claude.js";
import type { FakeClaudeScript } from "../../../src/testkit/fake-claude-script.js";
import { FakeSignals, parseJsonLines, TextSink } from "./cli-harness.js";

export interface ClaudeCliRunOptions {
  script?: FakeClaudeScript;
  /** Text on stdin (ends after it); `null` = a stdin that never ends. Default: empty. */
  stdin?: string | null;
  /** Default `{ IS_SANDBOX: "1" }`: tests run as root, where Claude Code's bypass mode needs it. */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  interruptGraceMs?: number;
  /** Default true: the in-memory fake claude is the launcher (no executable is looked up). */
  fake?: boolean;
  /** Which of stdin and stderr are terminals. Default: neither. */
  isTTY?: { stdin: boolean; stderr: boolean };
}

/** One in-process run of `main()` against the in-memory fake `claude`. */
export function startClaudeCli(argv: string[], options: ClaudeCliRunOptions = {}) {
  const fake = new InMemoryClaude(options.script ?? {});
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
    env: options.env ?? { IS_SANDBOX: "1" },
    cwd: options.cwd ?? tmpdir(),
    isTTY: { stdin: false, stdout: false, stderr: false, ...options.isTTY },
    signals,
    ...(options.fake === false ? {} : { launcher: fake.launcher }),
    ...(options.interruptGraceMs !== undefined ? { interruptGraceMs: options.interruptGraceMs } : {}),
  });
  return {
    fake,
    stdout,
    stderr,
    signals,
    exit,
    events: (): HarnessEvent[] => parseJsonLines(stdout.text),
  };
}

export async function runClaudeCli(argv: string[], options: ClaudeCliRunOptions = {}) {
  const started = startClaudeCli(argv, options);
  const code = await started.exit;
  return { ...started, code };
}
