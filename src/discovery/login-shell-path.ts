import { performance } from "node:perf_hooks";
import { runCommand, type RunResult } from "../process/run-command.js";
import type { LocusCommand } from "./locus-host.js";
import { describeRunFailure } from "../process/run-failure.js";
import { randomHex } from "../random-id.js";

/** What reading the login-shell PATH gave. */
export type LoginShellResult =
  | { type: "ok"; shell: string; path: string; flags: string; ms: number }
  | { type: "failed"; shell: string; reason: string; ms: number; aborted?: boolean };

/**
 * Bytes kept of the login shell's output: its tail, since the markers come last after whatever the rc files print
 * (banners, motd, tool setup), however much that is. A PATH never comes near this.
 */
export const LOGIN_SHELL_OUTPUT_BYTES = 256 * 1024;

/** The two marker lines around the PATH value. */
export function loginShellMarkers(nonce: string): { start: string; end: string } {
  return { start: `__RENNET_PATH_START_${nonce}__`, end: `__RENNET_PATH_END_${nonce}__` };
}

/**
 * The command given to `$SHELL -c`: shell-neutral (sh, bash, zsh, fish, csh), it prints PATH between two
 * unique marker lines so that whatever the rc files print around it is ignored.
 */
export function loginShellCommand(nonce: string): string {
  const { start, end } = loginShellMarkers(nonce);
  return `echo ${start}; printenv PATH; echo ${end}`;
}

/**
 * The flag sets to try, best first. Interactive login (`-i -l`) reads `.zshrc`/`.bashrc`, where nvm, asdf,
 * mise and fnm are usually initialized; plain login (`-l`) is the fallback when the interactive shell fails.
 * csh/tcsh accept `-l` only alone, and read `.cshrc` for every shell, so they get `-c` only. Pure.
 */
export function loginShellFlagSets(shell: string): string[][] {
  const name = shell.split(/[\\/]/).pop() ?? shell;
  if (/^t?csh$/.test(name)) return [[]];
  return [["-i", "-l"], ["-l"]];
}

/**
 * Extracts the PATH printed between the markers, ignoring any rc-file noise before or after (including
 * output that happens to repeat the start marker). Null when the markers are missing. Pure.
 */
export function parseLoginShellOutput(output: string, nonce: string): string | null {
  const { start, end } = loginShellMarkers(nonce);
  const stdout = output.replace(/\r\n/g, "\n");
  const endAt = stdout.lastIndexOf(`\n${end}`);
  if (endAt < 0) return null;
  const startAt = stdout.lastIndexOf(`${start}\n`, endAt);
  if (startAt < 0) return null;
  const value = stdout.slice(startAt + start.length + 1, endAt + 1).replace(/\n$/, "");
  return value.includes("\n") ? null : value;
}

export interface ReadLoginShellPathOptions {
  shell: string;
  /** The environment the shell starts with. */
  env: NodeJS.ProcessEnv;
  /** Total budget for every attempt. */
  timeoutMs: number;
  signal?: AbortSignal;
  /** How to spawn argv in the locus (identity for native, `wsl.exe …` for WSL). */
  wrap?: (argv: string[]) => LocusCommand;
  cwd?: string;
}

/**
 * Runs the user's login shell to learn the PATH a terminal would have. stdin is closed and the shell leads its
 * own session, so an interactive rc file can neither wait for input nor take over the terminal; on timeout or
 * abort the shell's whole tree is ended.
 */
export async function readLoginShellPath(options: ReadLoginShellPathOptions): Promise<LoginShellResult> {
  const started = performance.now();
  const deadline = started + options.timeoutMs;
  const ms = (): number => Math.round(performance.now() - started);
  const nonce = randomHex(6);
  const command = loginShellCommand(nonce);
  const reasons: string[] = [];
  for (const flags of loginShellFlagSets(options.shell)) {
    const remaining = Math.round(deadline - performance.now());
    if (remaining < 50) break;
    const argv = [options.shell, ...flags, "-c", command];
    const wrapped = options.wrap ? options.wrap(argv) : { command: options.shell, prefixArgs: argv.slice(1) };
    const spec = {
      command: wrapped.command,
      args: wrapped.prefixArgs,
      env: { ...options.env, ...wrapped.env, RENNET_RESOLVING_ENVIRONMENT: "1" },
      cwd: options.cwd,
    };
    const result = await runCommand(spec, {
      timeoutMs: remaining,
      signal: options.signal,
      keepStdout: "tail",
      maxStdoutBytes: LOGIN_SHELL_OUTPUT_BYTES,
    });
    const label = flags.join(" ") || "-c";
    if (result.type === "aborted")
      return { type: "failed", shell: options.shell, reason: "aborted", ms: ms(), aborted: true };
    if (result.type === "exited" || result.type === "timeout") {
      const path = parseLoginShellOutput(result.stdout, nonce);
      if (path !== null && path.length > 0)
        return { type: "ok", shell: options.shell, path, flags: label, ms: ms() };
    }
    reasons.push(`${label}: ${attemptFailure(result, options.timeoutMs)}`);
    if (result.type === "timeout") break;
  }
  return {
    type: "failed",
    shell: options.shell,
    reason: reasons.length > 0 ? reasons.join("; ") : `no time left (budget ${options.timeoutMs} ms)`,
    ms: ms(),
  };
}

/** Why one attempt gave no PATH: no markers in what it printed (saying when only the tail was kept), or how it ended. */
function attemptFailure(result: RunResult, timeoutMs: number): string {
  if (result.type !== "exited" || result.code !== 0) return describeRunFailure(result, timeoutMs);
  if (!result.stdoutTruncated) return "printed no PATH between the markers";
  const kib = LOGIN_SHELL_OUTPUT_BYTES / 1024;
  return `printed no PATH between the markers in the last ${kib} KiB of its output (everything before was cut)`;
}
