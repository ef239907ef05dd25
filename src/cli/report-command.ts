import type { CliSignal } from "./cli-io.js";
import type { ResolvedCliIo } from "./cli-io.js";
import { shouldUseColor } from "./color.js";
import { abortOnSignals } from "./signal-cancellation.js";
import { RennetError } from "../errors.js";
import type { CliHarnessWords } from "./turn-option-specs.js";
import { UsageError } from "./usage-error.js";
import { cwdFlag } from "./flag-value.js";
import { printedJson } from "../printable-text.js";

/**
 * Runs a report-producing step (`codex doctor`, `codex mcp-isolation`) under SIGINT/SIGTERM: the first signal
 * aborts the step's signal with `received SIGINT` (or SIGTERM); every signal is passed to `onSignal`. Resolves
 * with the report, or with null when the step rejected after a signal (the command then exits 130).
 */
export async function cancellableReport<T>(
  io: ResolvedCliIo,
  produce: (signal: AbortSignal) => Promise<T>,
  onSignal?: (signal: CliSignal, first: boolean) => void,
): Promise<T | null> {
  const cancellation = abortOnSignals(
    io.signals,
    (signal) => new RennetError("CLI_SIGNAL", `received ${signal}`),
    onSignal,
  );
  try {
    return await produce(cancellation.signal);
  } catch (error) {
    if (cancellation.signal.aborted) return null;
    throw error;
  } finally {
    cancellation.dispose();
  }
}

/**
 * Prints a report on stdout: one line of JSON with `--json` (through `printedJson`), else `format`'s text (coloured only when stdout is
 * a terminal, `--no-color` and `NO_COLOR` are absent), ending with a newline.
 */
export function writeReport<T>(
  io: ResolvedCliIo,
  report: T,
  options: { json?: boolean; color: boolean },
  format: (report: T, options: { color: boolean }) => string,
): void {
  if (options.json) {
    const json = JSON.stringify(report);
    // a terminal gets the same value with nothing in it that could drive the terminal; a pipe gets it as it is
    io.stdout.write(`${printedJson(json, io.isTTY.stdout)}\n`);
    return;
  }
  const text = format(report, {
    color: shouldUseColor({ isTTY: io.isTTY.stdout, env: io.env, flag: options.color }),
  });
  io.stdout.write(text.endsWith("\n") ? text : `${text}\n`);
}

/**
 * Checks a report command's `--codex-bin`/`--claude-bin` (`words.binFlag`) not to be empty and its `--cwd`, where
 * it has them, to be an existing directory (as `run` checks it), before anything is discovered or started.
 * Returns the executable flag's value and the directory (absolute against `baseCwd`; `baseCwd` without
 * `--cwd`). Throws {@link UsageError} naming `command`'s help.
 */
export function checkReportPaths(
  words: CliHarnessWords,
  raw: { codexBin?: string; claudeBin?: string; cwd?: string },
  baseCwd: string,
  command: string,
): { bin: string | undefined; cwd: string } {
  const bin = words.binFlag === "codex-bin" ? raw.codexBin : raw.claudeBin;
  if (bin === "")
    throw new UsageError(
      `--${words.binFlag} is empty: give the path of the ${words.executable} executable`,
      command,
    );
  if (raw.cwd === "") throw new UsageError("--cwd is empty: give a directory", command);
  return { bin, cwd: cwdFlag(raw.cwd, baseCwd, words, command) };
}
