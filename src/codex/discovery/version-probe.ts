import type { LaunchSpec } from "../../process/app-server-process.js";
import { runCommand, type RunResult } from "../../process/run-command.js";

/** The `version` probe's verdict. */
export type VersionProbeResult =
  | { type: "pass"; version: string; ms: number }
  | { type: "fail"; reason: string; ms: number; aborted?: boolean };

/** Reads the version from `codex --version` output (`codex-cli 0.171.0` → `0.171.0`). Pure. */
export function parseCodexVersion(output: string): string | null {
  const named = /\bcodex(?:[-_ ]?cli)?\s+v?(\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.+-]*[0-9A-Za-z])?)/i.exec(output);
  if (named?.[1]) return named[1];
  const bare = /(?:^|\s)v?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]*[0-9A-Za-z])?)(?:\s|$)/.exec(output);
  return bare?.[1] ?? null;
}

/** Runs `<spec> --version` and checks that it prints a version. */
export async function probeVersion(
  spec: LaunchSpec,
  options: { timeoutMs: number; signal?: AbortSignal },
): Promise<VersionProbeResult> {
  const result = await runCommand(spec, { timeoutMs: options.timeoutMs, signal: options.signal });
  if (result.type === "exited" && result.code === 0) {
    const version = parseCodexVersion(result.stdout) ?? parseCodexVersion(result.stderr);
    if (version) return { type: "pass", version, ms: result.ms };
    return {
      type: "fail",
      reason: `printed no version (stdout: ${JSON.stringify(firstLine(result.stdout) ?? "")})`,
      ms: result.ms,
    };
  }
  return {
    type: "fail",
    reason: describeRunFailure(result, options.timeoutMs),
    ms: result.ms,
    aborted: result.type === "aborted",
  };
}

/** One line that says why a probe command failed, with the last line of its stderr. Pure. */
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

function firstLine(text: string): string | undefined {
  return text
    .split(/\r?\n/)
    .find((line) => line.trim().length > 0)
    ?.slice(0, 120);
}
