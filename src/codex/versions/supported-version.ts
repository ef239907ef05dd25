import { CodexUnavailableError } from "../codex-unavailable-error.js";
import { isSupportedCodexVersion, MINIMUM_SUPPORTED_CODEX, parseVersion } from "./capabilities.js";

/** How a user gets a supported codex. */
export const CODEX_UPGRADE_COMMAND = "npm i -g @openai/codex@latest";

/**
 * A codex older than {@link MINIMUM_SUPPORTED_CODEX}. A {@link CodexUnavailableError} (so the CLI exits 3 and a
 * session fails before any launch) with code `CODEX_UNSUPPORTED_VERSION`; `.version` is what it reported.
 */
export class UnsupportedCodexVersionError extends CodexUnavailableError {
  override readonly name = "UnsupportedCodexVersionError";
  readonly version: string;
  readonly minimum: string;

  constructor(version: string) {
    super(null, unsupportedVersionMessage(version), "CODEX_UNSUPPORTED_VERSION");
    this.version = version;
    this.minimum = MINIMUM_SUPPORTED_CODEX;
  }
}

/** "codex 0.66.0 is older than the oldest supported 0.72.0; upgrade with `npm i -g @openai/codex@latest`". Pure. */
export function unsupportedVersionMessage(version: string): string {
  const parsed = parseVersion(version);
  const shown = parsed
    ? parsed.core.join(".") + (parsed.prerelease.length ? `-${parsed.prerelease.join(".")}` : "")
    : version;
  return (
    `codex ${shown} is older than the oldest supported ${MINIMUM_SUPPORTED_CODEX}; ` +
    `upgrade with \`${CODEX_UPGRADE_COMMAND}\``
  );
}

/**
 * Throws {@link UnsupportedCodexVersionError} when `version` (a bare version or `codex --version` output) is
 * below {@link MINIMUM_SUPPORTED_CODEX}. An unknown version (null, or text without a version) passes: the
 * newest codex is assumed. Pure.
 */
export function assertSupportedVersion(version: string | null | undefined): void {
  if (version && !isSupportedCodexVersion(version)) throw new UnsupportedCodexVersionError(version);
}
