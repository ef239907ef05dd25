import { CAPABILITY_RANGES, type CodexCapabilities } from "./capabilities.js";
import { CodexUnavailableError } from "../codex-unavailable-error.js";
import { CODEX_UPGRADE_COMMAND } from "./supported-version.js";

/** The call features a codex version may lack, with what a user is told they are. */
const CALL_FEATURES = {
  outputSchema: "structured output (`turn/start.outputSchema`)",
  dynamicTools: "app tools (`thread/start.dynamicTools`)",
} as const;

/** A call feature gated by a capability of the same name. */
export type CallFeature = keyof typeof CALL_FEATURES;

/**
 * The codex is supported but too old for what this call asks (e.g. a utility call's output schema, which codex
 * before 0.80 silently ignores). A {@link CodexUnavailableError} with code `CODEX_UNSUPPORTED_VERSION` (the CLI
 * exits 3; a session fails before any thread work); `.feature` names the capability, `.minimum` the first
 * version that has it.
 */
export class UnsupportedCodexFeatureError extends CodexUnavailableError {
  override readonly name = "UnsupportedCodexFeatureError";
  readonly version: string | null;
  readonly feature: CallFeature;
  readonly minimum: string;

  constructor(version: string | null, feature: CallFeature) {
    const minimum = CAPABILITY_RANGES[feature].from ?? "";
    super(
      null,
      `codex ${version ?? "(unknown version)"} cannot do ${CALL_FEATURES[feature]}, which needs ${minimum} ` +
        `or newer; upgrade with \`${CODEX_UPGRADE_COMMAND}\``,
      "CODEX_UNSUPPORTED_VERSION",
    );
    this.version = version;
    this.feature = feature;
    this.minimum = minimum;
  }
}

/**
 * Throws {@link UnsupportedCodexFeatureError} when the call asks for something this codex would silently
 * ignore: an output schema without the `outputSchema` capability, app tools without `dynamicTools`. Pure.
 */
export function assertCallSupported(
  request: { outputSchema?: unknown; dynamicTools?: readonly unknown[] },
  capabilities: CodexCapabilities,
): void {
  if (request.outputSchema !== undefined && !capabilities.outputSchema) {
    throw new UnsupportedCodexFeatureError(capabilities.version, "outputSchema");
  }
  if (
    (request.dynamicTools?.length ?? 0) > 0 &&
    !capabilities.dynamicTools &&
    !capabilities.appToolsOverMcp
  ) {
    throw new UnsupportedCodexFeatureError(capabilities.version, "dynamicTools");
  }
}
