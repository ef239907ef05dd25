import { spawn, type ChildProcessByStdio } from "node:child_process";
import { realpath } from "node:fs/promises";
import type { Readable } from "node:stream";
import { parseMcpInventory, type McpInventoryEntry } from "./mcp-inventory-parse.js";
import { renderTomlInlineChecked } from "./mcp-overrides-toml.js";
import { McpPolicyError } from "./mcp-policy-error.js";
import { directoryChain, trustedProjectsTable } from "./project-trust-overrides.js";

/** Which Codex to ask: `command [...prefixArgs, <codex args>]`. Structurally compatible with the turn runner's target. */
export interface CodexInvocation {
  command: string;
  /** Arguments before Codex's own (e.g. the `codex.js` path when launched through node). */
  prefixArgs?: readonly string[];
  /** Variables set on top of `env`. */
  env?: Record<string, string>;
}

export interface McpInventoryOptions {
  codex: CodexInvocation;
  /** The turn's working directory: project layers (`.codex/config.toml`) are resolved from it. */
  cwd: string;
  /** Environment of the child (default `process.env`), merged under `codex.env`. Must hold the same CODEX_HOME as the turn. */
  env?: NodeJS.ProcessEnv;
  /** Default {@link DEFAULT_MCP_INVENTORY_TIMEOUT_MS}. */
  timeoutMs?: number;
  /** Aborting kills the child and rejects with exactly `signal.reason`. */
  signal?: AbortSignal;
}

/** `codex mcp list --json` reads config and prints; it starts no server. 15 s leaves room for a cold, loaded machine. */
export const DEFAULT_MCP_INVENTORY_TIMEOUT_MS = 15_000;
/** Output beyond this is not an inventory. */
const MAX_STDOUT_BYTES = 16 * 1024 * 1024;
const STDERR_TAIL_CHARS = 2000;
const KILL_GRACE_MS = 1000;

/**
 * `codex [...prefix] mcp list --json --disable plugins -c projects=<every trust dir trusted>`. Pure. Plugins
 * are off as they will be at launch; the trust override makes a repository's own `.codex/config.toml` servers
 * appear even before codex trusts the repository (`thread/start` may trust it later, and then they would start).
 * The override lives only in this read-only child: nothing is written to the user's config.
 */
export function buildMcpInventoryArgs(
  prefixArgs: readonly string[],
  trustDirectories: readonly string[],
): string[] {
  const args = [...prefixArgs, "mcp", "list", "--json", "--disable", "plugins"];
  if (trustDirectories.length > 0) {
    args.push(
      "-c",
      `projects=${renderTomlInlineChecked(trustedProjectsTable(trustDirectories), "projects")}`,
    );
  }
  return args;
}

/** Every directory from `cwd` (as given, and with symlinks resolved: codex keys trust by the real path) up to the root. */
export async function inventoryTrustDirectories(cwd: string): Promise<string[]> {
  const chain = directoryChain(cwd);
  try {
    chain.push(...directoryChain(await realpath(cwd)));
  } catch {
    // a cwd that is not on this file system (e.g. inside WSL) is trusted as written
  }
  return [...new Set(chain)];
}

/**
 * Runs `codex mcp list --json` with the turn's binary, cwd and environment and returns the validated
 * inventory. Rejects with {@link McpPolicyError} (`MCP_INVENTORY_FAILED`, `MCP_INVENTORY_TIMEOUT`,
 * `MCP_INVENTORY_SHAPE`) or, on abort, with `signal.reason`. The child is dead when the promise settles.
 */
export async function listConfiguredMcpServers(options: McpInventoryOptions): Promise<McpInventoryEntry[]> {
  options.signal?.throwIfAborted();
  const trust = await inventoryTrustDirectories(options.cwd);
  options.signal?.throwIfAborted();
  const args = buildMcpInventoryArgs(options.codex.prefixArgs ?? [], trust);
  const stdout = await runToCompletion(options, args);
  return parseMcpInventory(stdout);
}

function runToCompletion(options: McpInventoryOptions, args: string[]): Promise<string> {
  const { codex, cwd, signal } = options;
  const timeoutMs = options.timeoutMs ?? DEFAULT_MCP_INVENTORY_TIMEOUT_MS;
  const env = { ...(options.env ?? process.env), ...codex.env };
  const groupLeader = process.platform !== "win32";
  const shown = `${codex.command} ${args.slice(0, (codex.prefixArgs?.length ?? 0) + 3).join(" ")}`;
  return new Promise<string>((resolve, reject) => {
    let child: ChildProcessByStdio<null, Readable, Readable>;
    try {
      child = spawn(codex.command, args, {
        cwd,
        env,
        stdio: ["ignore", "pipe", "pipe"],
        detached: groupLeader,
        windowsHide: true,
      });
    } catch (error) {
      reject(startFailure(codex.command, cwd, error as NodeJS.ErrnoException));
      return;
    }
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = "";
    let failure: (() => Error | unknown) | null = null;
    let settled = false;
    let killTimer: NodeJS.Timeout | undefined;

    const signalTree = (name: NodeJS.Signals): void => {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      try {
        if (groupLeader) process.kill(-child.pid, name);
        else child.kill(name);
      } catch {
        // already gone
      }
    };
    const stop = (why: () => Error | unknown): void => {
      if (failure) return;
      failure = why;
      signalTree("SIGTERM");
      killTimer = setTimeout(() => signalTree("SIGKILL"), KILL_GRACE_MS);
    };
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(killTimer);
      signal?.removeEventListener("abort", onAbort);
      outcome();
    };
    const onAbort = (): void => stop(() => signal?.reason);
    const timer = setTimeout(
      () =>
        stop(
          () =>
            new McpPolicyError(
              "MCP_INVENTORY_TIMEOUT",
              `${shown} did not finish within ${timeoutMs} ms; check that this Codex starts (run it by hand) or raise the timeout`,
            ),
        ),
      timeoutMs,
    );
    signal?.addEventListener("abort", onAbort, { once: true });

    child.stdout.on("data", (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > MAX_STDOUT_BYTES) {
        stop(
          () =>
            new McpPolicyError(
              "MCP_INVENTORY_SHAPE",
              `${shown} printed more than ${MAX_STDOUT_BYTES} bytes; that is not an MCP inventory`,
            ),
        );
        return;
      }
      stdout.push(chunk);
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL_CHARS);
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      // only a failed start reaches here before 'close'; there is no process to wait for
      if (child.pid !== undefined) return;
      finish(() => reject(startFailure(codex.command, cwd, error)));
    });
    child.on("close", (code, closeSignal) => {
      finish(() => {
        if (failure) {
          reject(failure());
          return;
        }
        if (code !== 0) {
          const tail = stderr.trim();
          reject(
            new McpPolicyError(
              "MCP_INVENTORY_FAILED",
              `${shown} failed (${closeSignal ? `signal ${closeSignal}` : `exit ${code}`})` +
                `${tail ? `: ${tail}` : ""}. Fix the Codex configuration it reports, or run with the MCP policy "inherit".`,
            ),
          );
          return;
        }
        resolve(Buffer.concat(stdout).toString("utf8"));
      });
    });
    if (signal?.aborted) onAbort();
  });
}

function startFailure(command: string, cwd: string, error: NodeJS.ErrnoException): McpPolicyError {
  return new McpPolicyError(
    "MCP_INVENTORY_FAILED",
    `could not start ${command} to list MCP servers (${error.code ?? error.message}); ` +
      `check the Codex path and that the working directory ${cwd} exists`,
    { cause: error },
  );
}
