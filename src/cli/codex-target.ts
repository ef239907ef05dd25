import { isAbsolute, resolve } from "node:path";
import type { CodexCommand } from "../codex/discovery/codex-command.js";
import { discoverCodex } from "../codex/discovery/discover.js";
import type { DiscoveryReport } from "../codex/discovery/discovery-report.js";
import type { CodexLaunchTarget } from "../codex/turn-runner.js";

/** Where the chosen Codex came from, for messages. */
export type CodexTargetSource = "flag" | "env" | "discovery" | "injected";

export type CodexTargetResolution =
  | { type: "found"; target: CodexLaunchTarget | CodexCommand; source: CodexTargetSource }
  /** No usable Codex: the CLI exits with code 3. */
  | { type: "unavailable"; message: string; report: DiscoveryReport | null };

export interface CodexTargetRequest {
  /** `--codex-bin`: used exactly as given, no discovery, no probe. */
  codexBin?: string;
  env: NodeJS.ProcessEnv;
  /** Relative paths are resolved against this directory (the user's shell directory, not `--cwd`). */
  cwd: string;
  /** The working directory of the turn: it decides the locus (a WSL path runs Codex inside that distribution). */
  turnCwd?: string;
  /** Tests that inject a launcher skip discovery: the launcher decides what runs. */
  skipDiscovery?: boolean;
  signal?: AbortSignal;
}

/**
 * A path with a directory part is made absolute against `cwd`: the child is started in `--cwd`, so a relative
 * path would otherwise be looked up from there. A bare name (`codex`) is left for the PATH lookup. Pure.
 */
export function absolutizeCommand(command: string, cwd: string): string {
  if (isAbsolute(command)) return command;
  if (!command.includes("/") && !command.includes("\\")) return command;
  return resolve(cwd, command);
}

/** The few lines of a failed discovery that fit in an error message. Pure. */
export function summarizeUnavailable(report: DiscoveryReport): string {
  const lines = [report.reason ?? "no candidate passed every probe"];
  const failed = report.candidates.filter((c) => c.outcome === "failed");
  for (const candidate of failed.slice(0, 5)) {
    lines.push(`  ${candidate.path}: ${candidate.reason ?? "failed"}`);
  }
  if (failed.length > 5) lines.push(`  … and ${failed.length - 5} more (see \`rennet codex doctor\`)`);
  if (report.candidates.length === 0)
    lines.push("  no codex executable was found in any candidate directory");
  return lines.join("\n");
}

/**
 * Which Codex `rennet` runs: `--codex-bin` exactly as given (no probe); otherwise discovery
 * (`RENNET_CODEX_BIN` first, then the login-shell PATH, the process PATH, known install locations and app
 * bundles), choosing the best-ranked candidate that runs, prints a version and completes a handshake.
 */
export async function resolveCodexTarget(request: CodexTargetRequest): Promise<CodexTargetResolution> {
  if (request.codexBin !== undefined) {
    return {
      type: "found",
      target: { command: absolutizeCommand(request.codexBin, request.cwd) },
      source: "flag",
    };
  }
  if (request.skipDiscovery) {
    const fromEnv = request.env.RENNET_CODEX_BIN;
    const command =
      fromEnv !== undefined && fromEnv !== "" ? absolutizeCommand(fromEnv, request.cwd) : "codex";
    return { type: "found", target: { command }, source: "injected" };
  }
  const report = await discoverCodex({
    env: request.env,
    cwd: request.turnCwd ?? request.cwd,
    ...(request.env.HOME ? { homedir: request.env.HOME } : {}),
    ...(request.signal ? { signal: request.signal } : {}),
  });
  if (report.available && report.chosen) {
    return {
      type: "found",
      target: report.chosen,
      source: report.chosen.source === "env-override" ? "env" : "discovery",
    };
  }
  return {
    type: "unavailable",
    message: `Codex is unavailable: ${summarizeUnavailable(report)}\nRun \`rennet codex doctor\` for the full report, install Codex (npm i -g @openai/codex), or pass --codex-bin PATH.`,
    report,
  };
}
