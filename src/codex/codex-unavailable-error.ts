import { RennetError } from "../errors.js";
import type { DiscoveryReport } from "../discovery/discovery-report.js";

/**
 * No usable Codex: no candidate passed every probe, or the one given could not be used. `report` is the
 * discovery behind it (null when none ran), so a caller can print every candidate. The CLI exits with code 3.
 */
export class CodexUnavailableError extends RennetError<"CODEX_UNAVAILABLE" | "CODEX_UNSUPPORTED_VERSION"> {
  override readonly name: string = "CodexUnavailableError";
  /**
   * `code` is `CODEX_UNSUPPORTED_VERSION` when the report says a Codex was found but is too old (or `code`
   * says so), else `CODEX_UNAVAILABLE`.
   */
  constructor(
    readonly report: DiscoveryReport | null,
    message: string = unavailableMessage(report),
    code: "CODEX_UNAVAILABLE" | "CODEX_UNSUPPORTED_VERSION" = report?.code === "CODEX_UNSUPPORTED_VERSION"
      ? "CODEX_UNSUPPORTED_VERSION"
      : "CODEX_UNAVAILABLE",
  ) {
    super(code, message);
  }
}

function unavailableMessage(report: DiscoveryReport | null): string {
  if (report?.code === "CODEX_UNSUPPORTED_VERSION" && report.reason) return report.reason;
  return (
    `Codex is unavailable: ${report?.reason ?? "no candidate passed every probe"}. ` +
    `Run \`rennet codex doctor\` for every candidate, install Codex (npm i -g @openai/codex), ` +
    `or point RENNET_CODEX_BIN at a working codex executable.`
  );
}
