import { spawn } from "node:child_process";
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { tempDir } from "./temp.js";

const LOADER = pathToFileURL(
  fileURLToPath(new URL("../fixtures/process/ts-loader.mjs", import.meta.url)),
).href;
const FS_LOGGER = pathToFileURL(
  fileURLToPath(new URL("../fixtures/hygiene/fs-access-logger.mjs", import.meta.url)),
).href;
const RUN_ONE_TURN = fileURLToPath(new URL("../fixtures/hygiene/run-one-turn.js", import.meta.url));

/** One logged turn: its outcome, every path Rennet's own process touched, and the state directory it used. */
export interface LoggedTurn {
  outcome: unknown;
  paths: string[];
  stateDir: string;
}

/**
 * Runs one real turn of `harness` in a separate node process under the fs-access logger
 * (test/fixtures/hygiene/run-one-turn.js): only that process is observed, not the agent it starts.
 * `touchCredentials` (the control) makes it read the agent's credential file afterwards, as careless code would.
 */
export async function runLoggedTurn(options: {
  harness: "codex" | "claude";
  bin: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  touchCredentials?: boolean;
}): Promise<LoggedTurn> {
  const stateDir = await tempDir("fs-state");
  const log = path.join(await tempDir("fs-log"), "fs.log");
  await writeFile(log, "");
  const args = [
    "--import",
    LOADER,
    "--import",
    FS_LOGGER,
    RUN_ONE_TURN,
    options.harness,
    options.bin,
    options.cwd,
  ];
  if (options.touchCredentials) args.push("--touch-credentials");
  const child = spawn(process.execPath, args, {
    env: { ...options.env, RENNET_FS_LOG: log, RENNET_STATE_DIR: stateDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const code = await new Promise<number | null>((resolve) =>
    child.once("exit", (exitCode) => resolve(exitCode)),
  );
  if (code !== 0) throw new Error(`run-one-turn.js exited with ${code}: ${stderr}`);
  const result = JSON.parse(stdout.trim().split("\n").pop() ?? "{}") as { outcome?: unknown };
  const paths = (await readFile(log, "utf8"))
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => (JSON.parse(line) as { path: string }).path);
  return { outcome: result.outcome, paths, stateDir };
}
