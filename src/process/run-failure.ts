import type { RunResult } from "./run-command.js";

/** One line that says why a command failed, with the last line of its stderr. Pure. */
export function describeRunFailure(result: RunResult, timeoutMs: number): string {
  switch (result.type) {
    case "spawn-error":
      return `could not start (${result.errno ?? "error"}): ${result.message}`;
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
  return `: ${last.length > 240 ? `${last.slice(0, 240)}…` : last}`;
}
