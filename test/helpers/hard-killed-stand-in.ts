import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ProcessLedger } from "./process-ledger.js";

const LOADER = pathToFileURL(
  fileURLToPath(new URL("../fixtures/process/ts-loader.mjs", import.meta.url)),
).href;
const STAND_IN = fileURLToPath(new URL("../fixtures/hygiene/hard-killed-rennet.js", import.meta.url));

/**
 * A separate Rennet process (test/fixtures/hygiene/hard-killed-rennet.js) running one real turn of `harness`
 * through the public client's defaults, for a test to SIGKILL mid-turn. `next(type)` resolves with the next line
 * of that type it printed (`session.started` with the child's pid, `tool.started`, `terminal`).
 */
export interface StandIn {
  readonly child: ChildProcess;
  readonly exited: Promise<void>;
  next(type: string): Promise<Record<string, unknown>>;
}

export function startStandIn(
  harness: "codex" | "claude",
  bin: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): StandIn {
  const child = spawn(process.execPath, ["--import", LOADER, STAND_IN, harness, bin, cwd], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  if (!child.stdout) throw new Error("the stand-in has no stdout");
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  return {
    child,
    exited,
    async next(type) {
      for (;;) {
        const { value, done } = await lines.next();
        if (done) throw new Error(`the stand-in Rennet ended before printing ${type}; stderr: ${stderr}`);
        const line = JSON.parse(value as string) as Record<string, unknown>;
        if (line.type === type) return line;
      }
    },
  };
}

/**
 * One hard-kill test's stand-in and state directory: {@link end} (its `afterEach`) SIGKILLs a stand-in still
 * running, kills what the ledger knows of, and gives back the RENNET_STATE_DIR the test replaced.
 */
export class HardKillScene {
  standIn: StandIn | null = null;
  readonly #ledger: ProcessLedger;
  readonly #savedStateDir = process.env.RENNET_STATE_DIR;

  constructor(ledger: ProcessLedger) {
    this.#ledger = ledger;
  }

  /** Starts the stand-in (see {@link startStandIn}) with the ledger's marker in its environment. */
  start(harness: "codex" | "claude", bin: string, cwd: string, env: NodeJS.ProcessEnv): StandIn {
    this.standIn = startStandIn(harness, bin, cwd, this.#ledger.markedEnv(env));
    return this.standIn;
  }

  /** Makes the sessions of this process use `dir` as their state directory (the one the stand-in used). */
  useStateDir(dir: string): void {
    process.env.RENNET_STATE_DIR = dir;
  }

  end(): void {
    const child = this.standIn?.child;
    if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null)
      child.kill("SIGKILL");
    this.standIn = null;
    this.#ledger.killAll();
    if (this.#savedStateDir === undefined) delete process.env.RENNET_STATE_DIR;
    else process.env.RENNET_STATE_DIR = this.#savedStateDir;
  }
}
