import { RennetError } from "../errors.js";
import type { DiscoveryReport } from "../discovery/discovery-report.js";

/** How a user installs Claude Code: npm, or Anthropic's native installer. */
export const CLAUDE_INSTALL_HINT =
  "npm i -g @anthropic-ai/claude-code, or the native installer: curl -fsSL https://claude.ai/install.sh | bash";

/**
 * No usable Claude Code: no candidate passed every probe, or the one given could not be used. `report` is the
 * discovery behind it (null when none ran), so a caller can print every candidate (`formatDoctorReport`). The CLI
 * exits with code 3.
 */
export class ClaudeUnavailableError extends RennetError<"CLAUDE_UNAVAILABLE" | "CLAUDE_UNSUPPORTED_VERSION"> {
  override readonly name: string = "ClaudeUnavailableError";
  /**
   * `code` is `CLAUDE_UNSUPPORTED_VERSION` when the report says a Claude Code was found but is too old (the
   * message then names its version and how to update it), else `CLAUDE_UNAVAILABLE`.
   */
  constructor(
    readonly report: DiscoveryReport | null,
    message: string = unavailableMessage(report),
  ) {
    super(
      report?.code === "CLAUDE_UNSUPPORTED_VERSION" ? "CLAUDE_UNSUPPORTED_VERSION" : "CLAUDE_UNAVAILABLE",
      message,
    );
  }
}

function unavailableMessage(report: DiscoveryReport | null): string {
  if (report?.code === "CLAUDE_UNSUPPORTED_VERSION" && report.reason) return report.reason;
  return (
    `Claude Code is unavailable: ${report?.reason ?? "no candidate passed every probe"}. ` +
    `Run \`rennet claude doctor\` for every candidate, install Claude Code (${CLAUDE_INSTALL_HINT}), ` +
    `or point RENNET_CLAUDE_BIN at a working claude executable.`
  );
}
