/**
 * What a Claude Code version can do, derived from its version by one table. Boundaries come from the real
 * binaries (linux-x64, offline: 1.0.128, 2.0.77, 2.1.112, 2.1.332 were run) and, where marked, from the release's
 * own `cli.js` (a string search of the published package, not run). `from` is the first version that has the
 * capability; between two checked versions the boundary sits at the later one, so an unchecked version in
 * between gets the older behaviour. An unknown version is assumed to be the newest. Pure.
 */
import { compareClaudeVersions, formatClaudeVersion, parseClaudeVersion } from "./claude-version.js";
import type { ClaudeVersion } from "./claude-version.js";
import { ClaudeUnsupportedVersionError } from "./errors.js";

/**
 * The oldest Claude Code Rennet drives: 2.0.64 is the first release with `--no-session-persistence` (2.0.62 has
 * none, `cli.js` search; 2.0.77 run), without which every turn would land in the user's transcript history. It
 * also has everything else a turn needs: stream-json in and out, partial messages, the `interrupt` control
 * request, `--setting-sources`, `--strict-mcp-config`, `--json-schema` (2.0.50) and `--max-budget-usd` (2.0.30).
 */
export const MINIMUM_SUPPORTED_CLAUDE = "2.0.64";

/** What Rennet may rely on for one Claude Code version. */
export interface ClaudeCapabilities {
  /** The version the record was derived from (`null` when unknown: newest assumed). */
  version: string | null;
  /** At least {@link MINIMUM_SUPPORTED_CLAUDE}. */
  supported: boolean;
  /** `--effort <level>` exists (before, `error: unknown option '--effort'`, exit 1). */
  effort: boolean;
  /** `--effort xhigh` is accepted (before, the levels are `low`, `medium`, `high`, `max`). */
  effortXhigh: boolean;
  /**
   * A `--json-schema` turn whose model never calls `StructuredOutput` ends after one reminder (`result` without
   * `structured_output`). Before, Claude reminds it without bound (hundreds of model requests a minute), so a
   * runner must bound the turn itself (count the synthetic reminders, or the turn deadline).
   */
  structuredOutputBounded: boolean;
  /** `result` carries `terminal_reason` and `api_error_status` (before, only `subtype` and `is_error`). */
  resultTerminalReason: boolean;
  /**
   * `interrupt` and a budget stop report `is_error: true` on their `result`; before, `is_error: false` (the
   * `subtype` says `error_during_execution` / `error_max_budget_usd` in every version).
   */
  stopResultIsError: boolean;
  /** The npm package's `bin` is the native binary (`bin/claude.exe`); before, `cli.js` run by `node`. */
  nativeBinary: boolean;
  /** `--permission-prompts host|none` exists. */
  permissionPromptsFlag: boolean;
  /** A user line sent with a `uuid` under `--replay-user-messages` is acknowledged with `command_lifecycle` lines. */
  commandLifecycle: boolean;
  /**
   * Under `--permission-mode default --permission-prompt-tool stdio` a tool call that needs approval is sent to
   * the client as `can_use_tool` and waits for its answer; before, a redirecting Bash write ran unasked.
   */
  hostPermissionPrompts: boolean;
}

type CapabilityName = Exclude<keyof ClaudeCapabilities, "version" | "supported">;

/** The table: the first version with each capability. Each comment names the checked neighbours. */
export const CLAUDE_CAPABILITY_FROM: Readonly<Record<CapabilityName, string>> = Object.freeze({
  effort: "2.1.38", // 2.0.77 refused (run), 2.1.37 no / 2.1.38 yes (cli.js), 2.1.112 accepted (run)
  effortXhigh: "2.1.111", // 2.1.110 no / 2.1.111 yes (cli.js), 2.1.332 (help)
  structuredOutputBounded: "2.1.332", // 2.1.112 unbounded, 2.1.332 bounded (run; not bisected)
  resultTerminalReason: "2.1.112", // 2.0.77 no, 2.1.112 yes (run)
  stopResultIsError: "2.1.112", // 2.0.77 false, 2.1.112 true (run)
  nativeBinary: "2.1.113", // 2.1.112 cli.js, 2.1.113 bin/claude.exe (npm view)
  permissionPromptsFlag: "2.1.332", // 2.1.112 no, 2.1.332 yes (help)
  commandLifecycle: "2.1.332", // 2.1.112 no, 2.1.332 yes (run)
  hostPermissionPrompts: "2.1.112", // 2.0.77 ran a declined Bash write, 2.1.112 and 2.1.332 asked (run)
});

/** The capabilities of a version: a `--version` output, an init's `claude_code_version`, or null (unknown). Pure. */
export function claudeCapabilities(versionText: string | null): ClaudeCapabilities {
  const version = versionText === null ? null : parseClaudeVersion(versionText);
  const holds = (from: string): boolean =>
    version === null || compareClaudeVersions(version, parseClaudeVersion(from) as ClaudeVersion) >= 0;
  const capabilities = {
    version: version === null ? null : formatClaudeVersion(version),
    supported: holds(MINIMUM_SUPPORTED_CLAUDE),
  } as ClaudeCapabilities;
  for (const name of Object.keys(CLAUDE_CAPABILITY_FROM) as CapabilityName[])
    capabilities[name] = holds(CLAUDE_CAPABILITY_FROM[name]);
  return capabilities;
}

/** What a call asks of the Claude Code that runs it, beyond a supported release. */
export interface ClaudeCallNeeds {
  /** The call's `effort` level, if any. */
  effort?: string;
  /** The call routes permission prompts to the app (`approvals`). */
  approvals: boolean;
}

/**
 * Throws {@link ClaudeUnsupportedVersionError} when the version is older than {@link MINIMUM_SUPPORTED_CLAUDE} or
 * cannot do what the call needs:
 * `--effort`, `--effort xhigh`, or `approvals` (every permission prompt sent to the client). Pure.
 */
export function assertClaudeCallSupported(capabilities: ClaudeCapabilities, needs: ClaudeCallNeeds): void {
  if (!capabilities.supported)
    throw new ClaudeUnsupportedVersionError(capabilities.version, MINIMUM_SUPPORTED_CLAUDE, null);
  const lacks = (capability: CapabilityName, feature: string): never => {
    throw new ClaudeUnsupportedVersionError(
      capabilities.version,
      CLAUDE_CAPABILITY_FROM[capability],
      feature,
    );
  };
  if (needs.effort !== undefined && !capabilities.effort) lacks("effort", "--effort");
  if (needs.effort === "xhigh" && !capabilities.effortXhigh) lacks("effortXhigh", "--effort xhigh");
  if (needs.approvals && !capabilities.hostPermissionPrompts) lacks("hostPermissionPrompts", "approvals");
}
