import type { LaunchSpec } from "../../process/stdio-child.js";
import { runCommand } from "../../process/run-command.js";
import { describeRunFailure } from "../../process/run-failure.js";
import { parseCodexVersion } from "../versions/version-text.js";

/** The `version` probe's verdict. */
export type VersionProbeResult =
  | { type: "pass"; version: string; ms: number }
  | { type: "fail"; reason: string; ms: number; aborted?: boolean };

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

function firstLine(text: string): string | undefined {
  return text
    .split(/\r?\n/)
    .find((line) => line.trim().length > 0)
    ?.slice(0, 120);
}
