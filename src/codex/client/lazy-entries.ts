/**
 * The package's one door for deferred loads. Importing the package loads none of what is behind it: the turn
 * runner, its protocol half and the process machinery load with a client's first session, discovery with the first client
 * that must find a Codex, the MCP inventory and its TOML with the first explicit MCP policy, and the
 * operations below on their first call. Everything behind the door imports statically.
 */
import { lazyModule } from "../../load-module.js";
import { checkDiscoverOptions, checkMcpIsolationOptions, checkProjectTrustOptions } from "./option-check.js";
import { DISCOVER_OPTIONS } from "./known-options.js";
import type * as Launcher from "../../process/stdio-launcher.js";
import type * as Reaper from "../../process/reap-orphans.js";
import type * as Discovery from "../discovery/discover.js";
import type * as ExplicitCodex from "../launch/explicit-codex.js";
import type { DiscoverOptions } from "../discovery/discover.js";
import type { DiscoveryReport } from "../../discovery/discovery-report.js";
import type * as McpIsolationCheck from "../mcp/mcp-isolation-check.js";
import type { McpIsolationCheckOptions } from "../mcp/mcp-isolation-check.js";
import type { McpIsolationReport } from "../mcp/mcp-isolation-report.js";
import type * as McpLaunch from "../mcp/resolve-mcp-launch.js";
import type * as ProjectTrustCheck from "../trust/project-trust-check.js";
import type { ProjectTrustCheckOptions, ProjectTrustReport } from "../trust/project-trust-check.js";
import type * as TurnChild from "../turn/turn-child.js";
import type * as TurnRunner from "../turn/turn-runner.js";
import type * as AppToolsMcp from "../../tools/app-tools-mcp.js";
import type { TurnRuntime } from "../turn/turn-child.js";

/** The turn runner: loaded with a client's first session (see `DeferredSession`). */
export const loadTurnRunner = lazyModule<typeof TurnRunner>(
  new URL("../turn/turn-runner.js", import.meta.url),
  () => import("../turn/turn-runner.js"),
);

const loadTurnChild = lazyModule<typeof TurnChild>(
  new URL("../turn/turn-child.js", import.meta.url),
  () => import("../turn/turn-child.js"),
);

/** The turn's protocol half: the app-server session, the start sequence, the event mapper, the approvals. */
export async function loadTurnRuntime(): Promise<TurnRuntime> {
  return (await loadTurnChild()).turnRuntime;
}

/** The app tools' loopback MCP server, for a codex before dynamic tools (0.72–0.99). */
export const loadAppToolsMcp = lazyModule<typeof AppToolsMcp>(
  new URL("../../tools/app-tools-mcp.js", import.meta.url),
  () => import("../../tools/app-tools-mcp.js"),
);

/** The real spawn of a child (`spawnStdioChild`). */
export const loadLauncher = lazyModule<typeof Launcher>(
  new URL("../../process/stdio-launcher.js", import.meta.url),
  () => import("../../process/stdio-launcher.js"),
);

/** The reaper of trees left by a Rennet process that died hard. */
export const loadReaper = lazyModule<typeof Reaper>(
  new URL("../../process/reap-orphans.js", import.meta.url),
  () => import("../../process/reap-orphans.js"),
);

/** The check of an explicit codex path (one `stat`; npm's launcher becomes its native binary). */
export const loadExplicitCodex = lazyModule<typeof ExplicitCodex>(
  new URL("../launch/explicit-codex.js", import.meta.url),
  () => import("../launch/explicit-codex.js"),
);

const loadDiscovery = lazyModule<typeof Discovery>(
  new URL("../discovery/discover.js", import.meta.url),
  () => import("../discovery/discover.js"),
);

/** The MCP policy's launch arguments (the `codex mcp list` inventory, the TOML overrides). */
export const loadMcpLaunch = lazyModule<typeof McpLaunch>(
  new URL("../mcp/resolve-mcp-launch.js", import.meta.url),
  () => import("../mcp/resolve-mcp-launch.js"),
);

const loadMcpIsolationCheck = lazyModule<typeof McpIsolationCheck>(
  new URL("../mcp/mcp-isolation-check.js", import.meta.url),
  () => import("../mcp/mcp-isolation-check.js"),
);

const loadProjectTrustCheck = lazyModule<typeof ProjectTrustCheck>(
  new URL("../trust/project-trust-check.js", import.meta.url),
  () => import("../trust/project-trust-check.js"),
);

/**
 * Finds the user's Codex (see `docs/discovery.md`). Rejects before anything starts for options it does not take
 * (`OPTION_UNKNOWN`, `OPTIONS_INVALID`); after that only with `signal.reason` on abort.
 */
export async function discoverCodex(options: DiscoverOptions = {}): Promise<DiscoveryReport> {
  checkDiscoverOptions(options, DISCOVER_OPTIONS);
  return (await loadDiscovery()).discoverCodex(options);
}

/**
 * The MCP isolation control (see `docs/mcp-policy.md`). Rejects before anything starts for options it does not
 * take (`OPTION_UNKNOWN`, `OPTIONS_INVALID`: `codex` must be a launch, `ResolvedCodex.launch`) or a `cwd` that is
 * not a directory (`CWD_INVALID`); after that only on abort, with `signal.reason`.
 */
export async function runMcpIsolationCheck(options: McpIsolationCheckOptions): Promise<McpIsolationReport> {
  const { cwd, codex } = checkMcpIsolationOptions(options);
  return (await loadMcpIsolationCheck()).runMcpIsolationCheck({ ...options, cwd, codex });
}

/**
 * The trust a turn in `cwd` would get and its effect on the repository's own `.codex/` layer on this codex
 * (see `docs/security.md`). Starts one app-server (no thread). Rejects before anything starts for options it does not
 * take (`OPTION_UNKNOWN`, `OPTIONS_INVALID`: `codex` must be a `ResolvedCodex`) or a `cwd` that is not a directory
 * (`CWD_INVALID`); then when codex fails, or with `signal.reason`.
 */
export async function checkProjectTrust(options: ProjectTrustCheckOptions): Promise<ProjectTrustReport> {
  const { cwd, codex } = checkProjectTrustOptions(options);
  return (await loadProjectTrustCheck()).checkProjectTrust({ ...options, cwd, codex });
}
