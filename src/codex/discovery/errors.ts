import type { DiscoveryReport } from "./discovery-report.js";

/** A working directory that cannot be expressed inside the chosen Codex's locus (e.g. a drive path for WSL). */
export class LaunchCwdError extends Error {
  override readonly name = "LaunchCwdError";
  readonly code = "LAUNCH_CWD_UNMAPPABLE";
  constructor(
    readonly cwd: string,
    readonly distro: string,
    message: string,
  ) {
    super(message);
  }
}

/** No candidate passed every probe. Carries the whole report so a caller can print it. */
export class CodexUnavailableError extends Error {
  override readonly name = "CodexUnavailableError";
  readonly code = "CODEX_UNAVAILABLE";
  constructor(readonly report: DiscoveryReport) {
    super(
      `Codex is unavailable: ${report.reason ?? "no candidate passed every probe"}. ` +
        `Run \`rennet codex doctor\` for every candidate, install Codex (npm i -g @openai/codex), ` +
        `or point RENNET_CODEX_BIN at a working codex executable.`,
    );
  }
}
