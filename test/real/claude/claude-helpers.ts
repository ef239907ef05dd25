import { execFileSync } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createClaudeCode, type ClaudeCodeClient } from "../../../src/claude/client/claude-client.js";
import type { HarnessEvent, TerminalEvent } from "../../../src/harness/events.js";
import { createClaudeHome, type ClaudeHome } from "../../../src/testkit/claude-home.js";
import {
  startLoopbackMessagesServer,
  type LoopbackMessagesServer,
} from "../../../src/testkit/loopback-messages-server.js";
import type { MessagesScenario } from "../../../src/testkit/messages-response-plan.js";
import { beforeAll, beforeEach } from "vitest";
import { claudeCapabilities, type ClaudeCapabilities } from "../../../src/claude/capabilities.js";
import { requireTestClaude, TEST_CLAUDE_BIN, testClaudeVersionOutput } from "../../helpers/claude-bin.js";

/**
 * Registers the file's hooks for the claude under test: `beforeAll` requires it and reads its capabilities
 * (`--version` under a throw-away HOME), `beforeEach` skips every test on a release older than the oldest
 * supported one (Rennet refuses it before a turn starts; turn-smoke.test.ts proves the refusal). Call at the top
 * of a file; `capabilities()` is valid inside tests.
 */
export function claudeUnderTest(): { capabilities(): ClaudeCapabilities } {
  let capabilities: ClaudeCapabilities | null = null;
  beforeAll(async () => {
    requireTestClaude();
    const home = await createClaudeHome({ modelUrl: "http://127.0.0.1:9" });
    try {
      capabilities = claudeCapabilities(
        testClaudeVersionOutput(home.env({ ...process.env, HOME: home.dir })),
      );
    } finally {
      await home.cleanup();
    }
  });
  beforeEach((context) => {
    if (!capabilities?.supported) context.skip();
  });
  return {
    capabilities: () => {
      if (capabilities === null)
        throw new Error("the claude under test was not read (beforeAll did not run)");
      return capabilities;
    },
  };
}

/** One offline setup for `createClaudeCode()` against the claude under test: a loopback model, HOME, cwd. */
export interface ClaudeSetup {
  model: LoopbackMessagesServer;
  home: ClaudeHome;
  cwd: string;
  claude: ClaudeCodeClient;
  /** The call's env every test passes: Claude refuses bypass as root without it (the library never sets it). */
  callEnv: NodeJS.ProcessEnv;
}

/** Everything a test started; `dispose` ends and removes all of it. */
export class ClaudeSetups {
  readonly #cleanups: (() => Promise<void>)[] = [];

  async create(
    scenario: MessagesScenario,
    options: { userSettings?: Record<string, unknown> } = {},
  ): Promise<ClaudeSetup> {
    const model = await startLoopbackMessagesServer({ scenario });
    this.#cleanups.push(() => model.close());
    const home = await createClaudeHome({
      modelUrl: model.url,
      ...(options.userSettings ? { userSettings: options.userSettings } : {}),
    });
    this.#cleanups.push(() => home.cleanup());
    const cwd = await mkdtemp(path.join(os.tmpdir(), "rennet-claude-cwd-"));
    this.#cleanups.push(() => rm(cwd, { recursive: true, force: true }));
    const claude = createClaudeCode({ claude: TEST_CLAUDE_BIN, env: home.env() });
    return { model, home, cwd, claude, callEnv: { IS_SANDBOX: "1" } };
  }

  async dispose(): Promise<void> {
    for (const cleanup of this.#cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  }
}

export async function collect(events: AsyncIterable<HarnessEvent>): Promise<HarnessEvent[]> {
  const all: HarnessEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

export { ofType } from "../../helpers/collect.js";

/** The prompt of {@link imageTurn}. */
export const IMAGE_PROMPT = "What is in the image?";

/** One turn of `s` given `bytes` written to `name` in its cwd as its image; the turn's terminal. */
export async function imageTurn(s: ClaudeSetup, name: string, bytes: Buffer): Promise<TerminalEvent> {
  await writeFile(path.join(s.cwd, name), bytes);
  return s.claude.runStreamed({ prompt: IMAGE_PROMPT, cwd: s.cwd, env: s.callEnv, images: [name] }).result;
}

/** Command lines of live processes that contain `marker` (this test's own `ps` excluded). */
export function processesWith(marker: string): string[] {
  const out = execFileSync("ps", ["-eo", "pid,args"], { encoding: "utf8" });
  return out.split("\n").filter((line) => line.includes(marker) && !line.includes("ps -eo"));
}

/** Entries of the session's CLAUDE_CODE_TMPDIR parent that Rennet made (`rennet-claude-*`). */
export async function rennetTmpDirs(home: ClaudeHome): Promise<string[]> {
  return (await readdir(home.tmpDir)).filter((name) => name.startsWith("rennet-claude-"));
}

/** Transcripts Claude wrote under `~/.claude/projects`. */
export async function transcripts(home: ClaudeHome): Promise<string[]> {
  try {
    const names = await readdir(path.join(home.dir, ".claude", "projects"), { recursive: true });
    return names.filter((name) => name.endsWith(".jsonl"));
  } catch {
    return [];
  }
}
