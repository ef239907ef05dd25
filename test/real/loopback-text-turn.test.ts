import { TEST_CODEX_BIN, testCodexVersion } from "../helpers/codex-bin.js";
import { spawn } from "node:child_process";
import type { ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import type { CodexHome } from "../../src/testkit/codex-home.js";
import { createCodexHome } from "../../src/testkit/codex-home.js";
import type { LoopbackModelServer } from "../../src/testkit/loopback-model-server.js";
import { startLoopbackModelServer } from "../../src/testkit/loopback-model-server.js";
import { TEXT_USAGE, text } from "../../src/testkit/model-scenarios.js";
import { codexCapabilities } from "../../src/codex/versions/capabilities.js";

const CODEX_BIN = TEST_CODEX_BIN;
const caps = codexCapabilities(testCodexVersion());

type Frame = {
  id?: number;
  method?: string;
  params?: Record<string, unknown>;
  result?: unknown;
  error?: unknown;
};

/** The smallest JSON-RPC-over-lines driver: requests by id, every frame recorded, server requests refused. */
class RawDriver {
  readonly frames: Frame[] = [];
  private nextId = 1;
  private readonly pending = new Map<number, (frame: Frame) => void>();
  private readonly watchers: { test: (frame: Frame) => boolean; resolve: (frame: Frame) => void }[] = [];
  private stderr = "";

  constructor(readonly child: ChildProcessWithoutNullStreams) {
    child.on("error", (error) => {
      this.stderr += `\nspawn error: ${error.message}`;
    });
    child.stderr.on("data", (chunk: Buffer) => {
      this.stderr = (this.stderr + chunk.toString("utf8")).slice(-4000);
    });
    createInterface({ input: child.stdout }).on("line", (line) => {
      const frame = JSON.parse(line) as Frame;
      this.frames.push(frame);
      if (frame.id !== undefined && frame.method === undefined) {
        this.pending.get(frame.id)?.(frame);
        this.pending.delete(frame.id);
      } else if (frame.id !== undefined) {
        this.send({ id: frame.id, error: { code: -32601, message: "not supported by this test" } });
      }
      for (const watcher of [...this.watchers]) {
        if (watcher.test(frame)) {
          this.watchers.splice(this.watchers.indexOf(watcher), 1);
          watcher.resolve(frame);
        }
      }
    });
  }

  send(frame: object): void {
    this.child.stdin.write(`${JSON.stringify(frame)}\n`);
  }

  async request(method: string, params: object): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    const reply = new Promise<Frame>((resolve) => this.pending.set(id, resolve));
    this.send({ id, method, params });
    const frame = await this.deadline(reply, `${method} response`);
    if (frame.error !== undefined) throw new Error(`${method} failed: ${JSON.stringify(frame.error)}`);
    return frame.result as Record<string, unknown>;
  }

  /** Resolves with the first frame (already received or future) that passes `test`. */
  waitFor(test: (frame: Frame) => boolean, what: string): Promise<Frame> {
    const seen = this.frames.find(test);
    if (seen !== undefined) return Promise.resolve(seen);
    return this.deadline(new Promise((resolve) => this.watchers.push({ test, resolve })), what);
  }

  private deadline<T>(promise: Promise<T>, what: string): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`no ${what} within 45 s; stderr tail:\n${this.stderr}`)),
        45_000,
      );
    });
    return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
  }
}

let child: ChildProcessWithoutNullStreams | null = null;
let model: LoopbackModelServer | null = null;
let home: CodexHome | null = null;
let cwd: string | null = null;

afterEach(async () => {
  if (child !== null && child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
    const running = child;
    const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
    running.stdin.end();
    const killer = setTimeout(() => running.kill("SIGKILL"), 2000);
    await exited;
    clearTimeout(killer);
  }
  child = null;
  await model?.close();
  model = null;
  await home?.cleanup();
  home = null;
  if (cwd !== null) await rm(cwd, { recursive: true, force: true });
  cwd = null;
});

describe("real codex app-server against the loopback model", () => {
  it("completes a text turn offline: streamed deltas, the agent message, usage, no rollout, config untouched", async () => {
    const message = "Hello from the loopback model.";
    model = await startLoopbackModelServer({ scenario: text(message, { chunks: 3 }) });
    home = await createCodexHome({ modelUrl: model.url });
    cwd = await mkdtemp(path.join(os.tmpdir(), "rennet-loopback-cwd-"));
    const configBefore = await readFile(home.configPath, "utf8");

    child = spawn(CODEX_BIN, ["app-server"], {
      cwd,
      env: home.env({ ...process.env, HOME: home.dir }),
      stdio: ["pipe", "pipe", "pipe"],
    });
    const driver = new RawDriver(child);

    const init = await driver.request("initialize", {
      clientInfo: { name: "rennet", title: "Rennet", version: "0" },
    });
    // `initialize` names the home only with initializeCodexHome (0.117+); before, it answers `{userAgent}`
    expect(init.codexHome).toBe(caps.initializeCodexHome ? home.dir : undefined);
    driver.send({ method: "initialized" });
    const started = await driver.request("thread/start", {
      cwd,
      approvalPolicy: "never",
      sandbox: "danger-full-access",
      ephemeral: true,
      // stated as Rennet states it: without it, codex before 0.150 persists a trust decision for the cwd
      config: { projects: { [cwd]: { trust_level: "trusted" } } },
    });
    const threadId = (started.thread as { id: string }).id;
    await driver.request("turn/start", {
      threadId,
      input: [{ type: "text", text: "say hello" }],
      cwd,
      approvalPolicy: "never",
      sandboxPolicy: { type: "dangerFullAccess" },
    });
    const completed = await driver.waitFor((f) => f.method === "turn/completed", "turn/completed");

    const turn = completed.params?.turn as { status: string; error: unknown };
    expect(turn.error).toBeNull();
    expect(turn.status).toBe("completed");
    const deltas = driver.frames
      .filter((f) => f.method === "item/agentMessage/delta")
      .map((f) => f.params?.delta);
    expect(deltas).toHaveLength(3);
    expect(deltas.join("")).toBe(message);
    const agentMessage = driver.frames
      .filter((f) => f.method === "item/completed")
      .map((f) => f.params?.item as { type: string; text?: string })
      .find((item) => item.type === "agentMessage");
    expect(agentMessage?.text).toBe(message);
    const usage = driver.frames.find((f) => f.method === "thread/tokenUsage/updated")?.params?.tokenUsage as {
      last: Record<string, number>;
    };
    expect(usage.last).toMatchObject({ ...TEXT_USAGE });

    const requests = model.responsesRequests();
    expect(requests).toHaveLength(1);
    expect(requests[0]?.body).toMatchObject({ model: "mock-model", stream: true });
    expect(await readFile(home.configPath, "utf8")).toBe(configBefore);
    // codex without ephemeralThreads (< 0.90) ignores `ephemeral` and writes a rollout file
    expect(existsSync(path.join(home.dir, "sessions"))).toBe(!caps.ephemeralThreads);
  });
});
