import { RennetError } from "../errors.js";

/** How a user updates the Claude Code they installed (npm, or the native installer's own updater). */
export const CLAUDE_UPGRADE_HINT =
  "update it with `claude update` (native installer) or `npm i -g @anthropic-ai/claude-code@latest`";

/**
 * The Claude Code found (or given) is older than the oldest supported release, or too old for what the call asks
 * (`feature` names it, e.g. `--effort`). `.version` is what it reported (null when unknown), `.minimum` the first
 * version that will do.
 */
export class ClaudeUnsupportedVersionError extends RennetError<"CLAUDE_UNSUPPORTED_VERSION"> {
  override readonly name = "ClaudeUnsupportedVersionError";
  readonly version: string | null;
  readonly minimum: string;
  readonly feature: string | null;

  constructor(version: string | null, minimum: string, feature: string | null) {
    const shown = `Claude Code ${version ?? "(unknown version)"}`;
    super(
      "CLAUDE_UNSUPPORTED_VERSION",
      feature === null
        ? `${shown} is older than the oldest supported ${minimum} (the first release with ` +
            "--no-session-persistence, which keeps Rennet's turns out of your transcript history); " +
            CLAUDE_UPGRADE_HINT
        : `${shown} cannot do ${feature}, which needs ${minimum} or newer; ${CLAUDE_UPGRADE_HINT}`,
      { details: { version, minimum, feature } },
    );
    this.version = version;
    this.minimum = minimum;
    this.feature = feature;
  }
}

/**
 * Claude Code refuses its bypass permission mode to root (`--dangerously-skip-permissions cannot be used with
 * root/sudo privileges`) unless the environment says it is a sandbox (`IS_SANDBOX=1`). Rennet never sets that
 * for the user: it fails before the turn with this error, which names both ways out.
 */
export class ClaudeBypassRefusedError extends RennetError<"CLAUDE_BYPASS_REFUSED"> {
  override readonly name = "ClaudeBypassRefusedError";

  constructor() {
    super(
      "CLAUDE_BYPASS_REFUSED",
      "Claude Code refuses to run without permission prompts (bypassPermissions) as root: run Rennet as a " +
        "normal user, or, inside a container or VM that is a sandbox, set IS_SANDBOX=1 in the environment " +
        "given to Claude Code (Rennet never sets it for you)",
    );
  }
}
