import { printableText } from "../printable-text.js";
import type { RunResult } from "./run-command.js";

/**
 * One line that says why a command failed, with the last line of its stderr. What came from the command or the
 * system (its stderr, the spawn error's text) is escaped with `printableText`, so the line is safe to print as is
 * and stays one line. Pure.
 */
export function describeRunFailure(result: RunResult, timeoutMs: number): string {
  switch (result.type) {
    case "spawn-error":
      return `could not start (${result.errno ?? "error"}): ${printableText(result.message, 480)}`;
    case "timeout":
      return `timed out after ${timeoutMs} ms${tail(result.stderr)}`;
    case "aborted":
      return "aborted";
    case "exited": {
      const how = result.signal ? `was killed by ${result.signal}` : `exited with code ${result.code}`;
      const hint = result.code === 3221225781 ? " (the Microsoft Visual C++ runtime is missing)" : "";
      return `${how}${hint}${tail(result.stderr)}`;
    }
  }
}

function tail(stderr: string): string {
  const lines = stderr
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line.length > 0);
  const last = lines.at(-1);
  if (!last) return "";
  return `: ${printableText(last, 241)}`;
}
