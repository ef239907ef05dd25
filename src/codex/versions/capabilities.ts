/**
 * What a codex version can do, derived from its version string by one table. Every boundary below was measured
 * on the real binaries (linux-x64, offline, see docs/compatibility.md): `from` is the first version that has
 * the capability, `until` the first that no longer has it (exclusive). Between two measured versions the
 * boundary is placed at the later one, so an untested version in between gets the older behaviour. An unknown
 * version (null, or a string that holds no version) is assumed to be the newest: every open-ended capability
 * holds, every bounded quirk does not. Pure.
 */
import { RennetError } from "../../errors.js";

/** The oldest codex Rennet drives: 0.66 rejects the `danger-full-access` sandbox spelling at `thread/start`. */
export const MINIMUM_SUPPORTED_CODEX = "0.72.0";

/** What Rennet may rely on for one codex version. */
export interface CodexCapabilities {
  /** The version the record was derived from (`null` when unknown: newest assumed). */
  version: string | null;
  /** At least {@link MINIMUM_SUPPORTED_CODEX}. */
  supported: boolean;
  /** `thread/start.sandbox` is spelled `danger-full-access` (kebab); 0.66 wants `dangerFullAccess`. */
  dangerFullAccessKebab: boolean;
  /**
   * The `plugins` feature exists, so `--disable plugins` is accepted (before, it exits 1 "Unknown feature flag").
   * `-c features.plugins=false` is accepted by every version, which is why Rennet never passes `--disable`.
   */
  pluginsFeature: boolean;
  /**
   * Launch `-c` overrides (e.g. the MCP policy's `mcp_servers`) reach a thread's MCP servers. Before, they show
   * in `config/read` but a thread starts the servers of the files alone; the policy must then also be given in
   * `thread/start`'s `config`.
   */
  launchOverridesReachThreads: boolean;
  /** `turn/start.outputSchema` is honoured (before, it is silently ignored). */
  outputSchema: boolean;
  /** `thread/start.ephemeral` is honoured (before, a rollout file is written into CODEX_HOME/sessions). */
  ephemeralThreads: boolean;
  /** `initialize.capabilities.optOutNotificationMethods` exists. */
  optOutNotificationMethods: boolean;
  /** `mcpServerStatus/list` exists (before, `mcpServers/list`). */
  mcpServerStatusList: boolean;
  /** `mcpServerStatus/list` takes `threadId` (before, its answer is not about one thread's servers). */
  mcpStatusThreadScoped: boolean;
  /** `McpServerStatus.runtimeStatus` exists (before, a status entry says only which tools a server has). */
  mcpRuntimeStatus: boolean;
  /** `mcpServer/startupStatus/updated` notifications report each server's startup. */
  mcpStartupStatusNotification: boolean;
  /**
   * Legacy `codex/event/*` notifications are emitted (`mcp_startup_update`/`mcp_startup_complete` are then the
   * only startup report).
   */
  legacyEventNotifications: boolean;
  /** `initialize`'s result carries `codexHome` (before, only `userAgent`). */
  initializeCodexHome: boolean;
  /**
   * A command item's `item/completed` always precedes `turn/completed`. False where codex sends it 7–65 ms after
   * `turn/completed` for a command still running at its first poll.
   */
  commandItemCompletedReliable: boolean;
  /**
   * `thread/start` writes `trust_level = "trusted"` for the cwd into CODEX_HOME/config.toml unless the thread
   * states `trusted` (an `untrusted` entry is overwritten too).
   */
  trustRewriteAtThreadStart: boolean;
  /**
   * A full-access `thread/start` in a git project whose trust neither config.toml nor the thread states
   * persists `trust_level = "trusted"` for it in config.toml (why Rennet always states the trust decision).
   * Before, `thread/start` writes no trust, so a project stays untrusted (its `.codex/` layer inactive) unless
   * the user trusted it.
   */
  trustPersistedAtThreadStart: boolean;
  /**
   * codex reads a project's own `.codex/config.toml` (its MCP servers included); before, only CODEX_HOME's
   * config.toml counts, so a repository cannot add MCP servers.
   */
  projectConfigLayers: boolean;
  /**
   * A project's own `.codex/config.toml` layer counts only once the project is trusted (`codex mcp list` in an
   * untrusted repository omits the repository's servers). Before, the layer counts whatever the trust: its MCP
   * servers start, its `notify` runs and its `model_provider` gets the requests (Rennet refuses an untrusted
   * turn where such a file exists, `UNTRUSTED_PROJECT_CONFIG`).
   */
  projectLayersNeedTrust: boolean;
  /**
   * A project's own `.codex/rules/` (exec-policy rules) count only once the project is trusted. Before (with
   * `projectConfigLayers`), they apply whatever the trust: a command a repository's rule allows runs without
   * asking the app's approvals handler, and outside the sandbox (Rennet refuses an untrusted turn whose
   * approvals the app answers where such a directory exists, `UNTRUSTED_PROJECT_CONFIG`).
   */
  projectRulesNeedTrust: boolean;
  /**
   * A trusted project's `.codex/config.toml` cannot set `model_provider`, `model_providers`, `notify`,
   * `profile` or `profiles` (codex ignores them with a warning), and a project's hooks run only once reviewed.
   * Before, a trusted repository can send the model requests to a provider of its own and run commands through
   * `notify` and its hooks.
   */
  projectLayerRestricted: boolean;
  /** A project's `AGENTS.md` reaches the model only once the project is trusted; before, whatever the trust. */
  agentsMdNeedsTrust: boolean;
  /** The model is offered `exec_command` (unified exec); before, a `shell` tool. */
  unifiedExecTool: boolean;
  /** Notifications carry a top-level `emittedAtMs`. */
  notificationEmittedAt: boolean;
  /**
   * A model call to an MCP tool must carry the server's namespace (the model is offered one `namespace` entry
   * per server whose tools keep their short names); a flat `mcp__<server>__<tool>` name is answered
   * "unsupported call". Before, the flat name is what routes (0.120 already offers the namespace; older
   * versions offer flat functions `mcp__<server>__<tool>`).
   */
  mcpToolNamespaceRequired: boolean;
  /** The MCP namespace offered to the model is `mcp__<server>`; before, `mcp__<server>__` (where there is one). */
  mcpNamespaceBare: boolean;
  /**
   * The model request carries the turn's `reasoning` (`effort`) also for a model codex has no metadata for
   * (e.g. a custom provider's); before, such a model's request has no `reasoning` key at all, whatever
   * `turn/start.effort` says.
   */
  effortForUncataloguedModel: boolean;
  /** `thread/resume` moves the thread to the call's cwd; before, a resumed thread keeps the cwd it started in. */
  resumeTakesCwd: boolean;
  /** `model_catalog_json` gives a model its metadata (e.g. the loopback model its `apply_patch` tool). */
  modelCatalogJson: boolean;
  /**
   * `update_plan` (and so `turn/plan/updated`) is offered to a model codex has no metadata for even without
   * `tools.update_plan.enabled = true` in config.toml.
   */
  planToolForUncataloguedModel: boolean;
  /** `turn/steer` (with `expectedTurnId`) adds input to the running turn; before, the method does not exist. */
  turnSteer: boolean;
  /**
   * Under an approval policy that asks, an MCP tool call is first asked about (`mcpServer/elicitation/request`
   * with `_meta.codex_approval_kind: "mcp_tool_call"`); before, codex calls the tool without asking.
   */
  mcpToolCallApprovals: boolean;
  /**
   * App tools: `thread/start.dynamicTools` (with `initialize.capabilities.experimentalApi`) are offered to the
   * model and each call comes as an `item/tool/call` request. Before, codex ignores them silently (the model's
   * call is answered "unsupported call").
   */
  dynamicTools: boolean;
  /**
   * Without dynamic tools, app tools reach the model through a streamable-HTTP MCP server given in the thread's
   * config with `http_headers` (Rennet's loopback server behind a per-session secret).
   */
  appToolsOverMcp: boolean;
}

type CapabilityName = Exclude<keyof CodexCapabilities, "version" | "supported">;

/** A half-open version range `[from, until)`; a missing bound is open. */
export interface VersionRange {
  from?: string;
  until?: string;
}

/** A capability holds inside its range, or, with `outside`, everywhere but inside it. */
export type CapabilityRow = VersionRange & { outside?: true };

/** The table. Each row's comment names the measured neighbours of its boundaries. */
export const CAPABILITY_RANGES: Readonly<Record<CapabilityName, CapabilityRow>> = Object.freeze({
  dangerFullAccessKebab: { from: "0.72.0" }, // 0.66 camel, 0.72 kebab
  pluginsFeature: { from: "0.110.0" }, // 0.107 no, 0.110 yes
  launchOverridesReachThreads: { from: "0.80.0" }, // 0.72 no, 0.80 yes
  outputSchema: { from: "0.80.0" }, // 0.72 no, 0.80 yes
  ephemeralThreads: { from: "0.90.0" }, // 0.80 no, 0.90 yes
  optOutNotificationMethods: { from: "0.100.0" }, // 0.98 no, 0.100 yes
  mcpServerStatusList: { from: "0.80.0" }, // 0.72 mcpServers/list, 0.80 mcpServerStatus/list
  mcpStatusThreadScoped: { from: "0.145.0" }, // 0.130 no, 0.145 yes
  mcpRuntimeStatus: { from: "0.150.0" }, // 0.149.1 no, 0.150 yes
  mcpStartupStatusNotification: { from: "0.117.0" }, // 0.114 no, 0.117 yes
  legacyEventNotifications: { until: "0.117.0" }, // 0.114 yes, 0.117 no
  initializeCodexHome: { from: "0.117.0" }, // 0.114 no, 0.117 yes
  commandItemCompletedReliable: { from: "0.117.0", until: "0.146.0", outside: true }, // 0.114 and 0.146 reliable
  trustRewriteAtThreadStart: { from: "0.120.0", until: "0.125.0" }, // 0.118 no, 0.120–0.124 yes, 0.125 no
  trustPersistedAtThreadStart: { from: "0.120.0" }, // 0.118 no, 0.120 yes
  projectConfigLayers: { from: "0.80.0" }, // 0.72 ignores a repository's .codex/config.toml, 0.80 reads it
  projectLayersNeedTrust: { from: "0.89.0" }, // 0.87 untrusted repository's layer loaded, 0.89 not
  projectRulesNeedTrust: { from: "0.122.0" }, // 0.80, 0.87, 0.100, 0.120, 0.121 untrusted rules applied, 0.122 not
  projectLayerRestricted: { from: "0.129.0" }, // 0.128 trusted layer's model_provider and notify honoured, 0.129 ignored
  agentsMdNeedsTrust: { from: "0.150.0" }, // 0.148 untrusted AGENTS.md sent to the model, 0.150 not
  unifiedExecTool: { from: "0.98.0" }, // 0.95 shell, 0.98 exec_command
  notificationEmittedAt: { from: "0.145.0" }, // 0.130 no, 0.145 yes
  mcpToolNamespaceRequired: { from: "0.121.0" }, // 0.120 flat name routes, 0.121 namespace required
  mcpNamespaceBare: { from: "0.135.0" }, // 0.134 `mcp__<server>__`, 0.135 `mcp__<server>`
  effortForUncataloguedModel: { from: "0.145.0" }, // 0.130 no `reasoning`, 0.145 `reasoning.effort`
  resumeTakesCwd: { from: "0.90.0" }, // 0.80 keeps the first cwd, 0.90 takes the call's
  modelCatalogJson: { from: "0.110.0" }, // 0.100 no apply_patch from a catalog, 0.110 yes
  planToolForUncataloguedModel: { until: "0.160.0" }, // 0.150 offers update_plan, 0.160 and 0.171 only with the config key
  turnSteer: { from: "0.100.0" }, // 0.90 no turn/steer, 0.100 turn/steer with expectedTurnId
  mcpToolCallApprovals: { from: "0.117.0" }, // 0.116 calls unasked, 0.117 asks (tool_name in _meta from 0.155–0.171)
  dynamicTools: { from: "0.100.0" }, // 0.90 ignores dynamicTools, 0.100 serves them
  appToolsOverMcp: { from: "0.72.0" }, // measured on 0.72, 0.80, 0.87, 0.89, 0.90 (unused from 0.100)
});

/** A parsed version: numeric core plus prerelease identifiers (empty for a release). */
interface ParsedVersion {
  core: [number, number, number];
  prerelease: string[];
}

/**
 * Reads `MAJOR.MINOR.PATCH[-pre][+build]` from a version string (`0.72.0`, `v0.150.0-alpha.1`, `codex-cli
 * 0.171.0`). Null when it holds none. Pure.
 */
export function parseVersion(text: string): ParsedVersion | null {
  const match = /(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?/.exec(text);
  if (!match) return null;
  return {
    core: [Number(match[1]), Number(match[2]), Number(match[3])],
    prerelease: match[4] ? match[4].split(".") : [],
  };
}

/** Semver precedence: negative when `a` < `b`. A prerelease sorts before its release. Pure. */
export function compareVersions(a: ParsedVersion, b: ParsedVersion): number {
  for (let i = 0; i < 3; i++) {
    const diff = (a.core[i] ?? 0) - (b.core[i] ?? 0);
    if (diff !== 0) return diff;
  }
  if (a.prerelease.length === 0 || b.prerelease.length === 0) {
    return (a.prerelease.length === 0 ? 1 : 0) - (b.prerelease.length === 0 ? 1 : 0);
  }
  for (let i = 0; i < Math.max(a.prerelease.length, b.prerelease.length); i++) {
    const x = a.prerelease[i];
    const y = b.prerelease[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const xn = /^\d+$/.test(x);
    const yn = /^\d+$/.test(y);
    if (xn && yn && Number(x) !== Number(y)) return Number(x) - Number(y);
    if (xn !== yn) return xn ? -1 : 1;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** The table's bounds, each parsed once: the table is constant. */
const parsedBounds = new Map<string, ParsedVersion>();

function parseBound(bound: string): ParsedVersion {
  const known = parsedBounds.get(bound);
  if (known) return known;
  const parsed = parseVersion(bound);
  if (!parsed) throw new RennetError("INTERNAL_ERROR", `bad version bound ${bound}`);
  parsedBounds.set(bound, parsed);
  return parsed;
}

function inRange(version: ParsedVersion | null, range: VersionRange): boolean {
  if (version === null) return range.until === undefined;
  if (range.from !== undefined && compareVersions(version, parseBound(range.from)) < 0) return false;
  if (range.until !== undefined && compareVersions(version, parseBound(range.until)) >= 0) return false;
  return true;
}

/** Whether `version` is at least {@link MINIMUM_SUPPORTED_CODEX}; an unknown version is assumed new enough. Pure. */
export function isSupportedCodexVersion(version: string | null | undefined): boolean {
  const parsed = version ? parseVersion(version) : null;
  return inRange(parsed, { from: MINIMUM_SUPPORTED_CODEX });
}

/** How many versions' records are kept: a process meets one or a few codex versions. */
const RECORD_CACHE_SIZE = 16;
const records = new Map<string, Readonly<CodexCapabilities>>();

/**
 * The capability record of `version` (`codex --version` output, a bare version, or null when unknown), frozen.
 * Every session asks for it more than once, so a version's record is built once and then shared.
 */
export function codexCapabilities(version: string | null | undefined): Readonly<CodexCapabilities> {
  const key = version ?? "";
  const known = records.get(key);
  if (known) return known;
  const record = Object.freeze(buildCapabilities(version));
  if (records.size >= RECORD_CACHE_SIZE) records.delete(records.keys().next().value as string);
  records.set(key, record);
  return record;
}

function buildCapabilities(version: string | null | undefined): CodexCapabilities {
  const parsed = version ? parseVersion(version) : null;
  const shown = parsed
    ? `${parsed.core.join(".")}${parsed.prerelease.length ? `-${parsed.prerelease.join(".")}` : ""}`
    : null;
  const record = {
    version: shown,
    supported: inRange(parsed, { from: MINIMUM_SUPPORTED_CODEX }),
  } as CodexCapabilities;
  for (const [name, row] of Object.entries(CAPABILITY_RANGES) as Array<[CapabilityName, CapabilityRow]>) {
    record[name] = inRange(parsed, row) !== (row.outside === true);
  }
  return record;
}
