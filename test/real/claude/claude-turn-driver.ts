import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { ClaudeEventMapper } from "../../../src/claude/event-mapper.js";
import type { ClaudeMapResult } from "../../../src/claude/map-result.js";
import { userMessage } from "../../../src/claude/stdin-messages.js";
import type { EventBody } from "../../../src/harness/events.js";
import { StreamTransport } from "../../../src/jsonl/stream-transport.js";
import { createClaudeHome, type ClaudeHome } from "../../../src/testkit/claude-home.js";
import {
  startLoopbackMessagesServer,
  type LoopbackMessagesServer,
} from "../../../src/testkit/loopback-messages-server.js";
import type { MessagesScenario } from "../../../src/testkit/messages-response-plan.js";
import { TEST_CLAUDE_BIN } from "../../helpers/claude-bin.js";

/** One real `claude` turn, driven by hand: what it wrote, how it ended, and what it left. */
export interface DrivenTurn {
  events: EventBody[];
  results: ClaudeMapResult[];
  mapper: ClaudeEventMapper;
  exit: { code: number | null; signal: string | null };
  stderr: string;
  /** The arguments the child was started with. */
  spawnargs: string[];
  model: LoopbackMessagesServer;
  home: ClaudeHome;
  cwd: string;
}

/** Everything a driven turn started; `dispose` ends and removes all of it. */
export class ClaudeTurnFixture {
  readonly #pids = new Set<number>();
  readonly #cleanups: (() => Promise<void>)[] = [];

  /**
   * Starts a loopback Messages server with `scenario`, a throw-away HOME and cwd, spawns `claude` with `args` in
   * its own process group (`IS_SANDBOX=1` in the child's environment only), writes the user message, maps every
   * stdout line, closes stdin once the `result` came, and waits for the exit (at most `deadlineMs`, default 45 s,
   * then kills). `files` are written into the cwd first.
   */
  async run(
    scenario: MessagesScenario,
    args: string[],
    prompt: string,
    options: { files?: Record<string, string>; deadlineMs?: number } = {},
  ): Promise<DrivenTurn> {
    const model = await startLoopbackMessagesServer({ scenario });
    this.#cleanups.push(() => model.close());
    const home = await createClaudeHome({ modelUrl: model.url });
    this.#cleanups.push(() => home.cleanup());
    const cwd = await mkdtemp(path.join(os.tmpdir(), "rennet-claude-cwd-"));
    this.#cleanups.push(() => rm(cwd, { recursive: true, force: true }));
    for (const [name, content] of Object.entries(options.files ?? {}))
      await writeFile(path.join(cwd, name), content, "utf8");
    const child = spawn(TEST_CLAUDE_BIN, args, {
      cwd,
      env: { ...home.env({ ...process.env, HOME: home.dir }), IS_SANDBOX: "1" },
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
    });
    if (child.pid !== undefined) this.#pids.add(child.pid);
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
    const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
      child.on("close", (code, signal) => resolve({ code, signal })),
    );
    const mapper = new ClaudeEventMapper();
    const results: ClaudeMapResult[] = [];
    const transport = new StreamTransport(child.stdout, child.stdin);
    transport.start({
      frame: (line) => {
        const result = mapper.map(line);
        results.push(result);
        if (result.result) transport.endOutput();
      },
      invalid: (message, line) =>
        results.push({ events: [{ type: "passthrough", reason: "unknown", native: { message, line } }] }),
      closed: () => {},
    });
    transport.send(userMessage({ text: prompt }));
    const timer = setTimeout(() => this.#kill(child.pid), options.deadlineMs ?? 45_000);
    const exit = await exited;
    clearTimeout(timer);
    return {
      events: results.flatMap((result) => result.events),
      results,
      mapper,
      exit,
      stderr,
      spawnargs: child.spawnargs,
      model,
      home,
      cwd,
    };
  }

  #kill(pid: number | undefined): void {
    if (pid === undefined) return;
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // already gone
    }
  }

  /** Kills every process group it started (a no-op for those that exited) and removes what it created. */
  async dispose(): Promise<void> {
    for (const pid of this.#pids) this.#kill(pid);
    this.#pids.clear();
    for (const cleanup of this.#cleanups.splice(0).reverse()) await cleanup();
  }
}
