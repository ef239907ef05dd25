import type { LaunchSpec } from "../process/stdio-child.js";
import { runCommand } from "../process/run-command.js";
import { describeRunFailure } from "../process/run-failure.js";
import { printableText } from "../printable-text.js";

/** The `version` probe's verdict. */
export type VersionProbeResult =
  | { type: "pass"; version: string; ms: number }
  | { type: "fail"; reason: string; ms: number; aborted?: boolean };

export interface VersionProbeOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** The version in the output, or null (tried on stdout, then stderr). */
  parseVersion(output: string): string | null;
}

/**
 * Runs `spec` (the executable with its version arguments) and checks that it exits 0 printing a version. A
 * failure's `reason` quotes the executable's output escaped (`printableText`): it is safe to print as is.
 */
export async function probeVersion(
  spec: LaunchSpec,
  options: VersionProbeOptions,
): Promise<VersionProbeResult> {
  const result = await runCommand(spec, { timeoutMs: options.timeoutMs, signal: options.signal });
  if (result.type === "exited" && result.code === 0) {
    const version = options.parseVersion(result.stdout) ?? options.parseVersion(result.stderr);
    if (version) return { type: "pass", version, ms: result.ms };
    return {
      type: "fail",
      reason: `printed no version (stdout: "${printableText(firstLine(result.stdout) ?? "", 121)}")`,
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

function firstLine(text: string): string | undefined {
  return text
    .split(/\r?\n/)
    .find((line) => line.trim().length > 0)
    ?.slice(0, 120);
}
