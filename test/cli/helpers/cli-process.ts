import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import type { HarnessEvent } from "../../../src/harness/events.js";
import { REPO_ROOT } from "../../helpers/codex-bin.js";
import { parseJsonLines } from "./cli-harness.js";

/**
 * The built CLI (`node bin/rennet.js`) as a separate process, for tests that run several at once. Needs the
 * build (`npx tsc -p tsconfig.build.json`; `npm test` makes it).
 */

export const CLI_BIN = path.join(REPO_ROOT, "bin", "rennet.js");
export const FAKE_APP_SERVER_BIN = path.join(REPO_ROOT, "dist", "testkit", "fake-app-server-bin.js");

/** Throws with the command to run when the build the process tests need is missing. */
export function requireBuild(): void {
  for (const file of [path.join(REPO_ROOT, "dist", "cli", "main.js"), FAKE_APP_SERVER_BIN]) {
    if (!existsSync(file))
      throw new Error(`${file} is missing: run \`npx tsc -p tsconfig.build.json\` first (\`npm test\` does)`);
  }
}

export interface CliProcess {
  child: ChildProcess;
  /** The exit code, once stdout and stderr are closed (null when a signal ended it). */
  exit: Promise<number | null>;
  stdout(): string;
  stderr(): string;
  /** The `--json` frames printed so far (complete lines only). */
  events(): HarnessEvent[];
}

/** Starts `node bin/rennet.js <args>` with exactly `env` (RENNET_CODEX_BIN removed). */
export function startCliProcess(args: readonly string[], options: { env: NodeJS.ProcessEnv; cwd: string }) {
  const env = { ...options.env };
  delete env.RENNET_CODEX_BIN;
  const child = spawn(process.execPath, [CLI_BIN, ...args], {
    cwd: options.cwd,
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => (stderr += chunk));
  const exit = new Promise<number | null>((resolve) => child.once("close", (code) => resolve(code)));
  const run: CliProcess = {
    child,
    exit,
    stdout: () => stdout,
    stderr: () => stderr,
    events: () => parseJsonLines(stdout.slice(0, stdout.lastIndexOf("\n") + 1)),
  };
  return run;
}
