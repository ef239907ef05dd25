/**
 * The trust a turn in a directory would get, and what that means for the repository's own `.codex/` layer on
 * this codex, without any thread or model turn: one `codex app-server` for `initialize` and `config/read`, then
 * stopped. `rennet codex doctor` shows it.
 */
import type { ProjectTrust } from "../../harness/events.js";
import type { Launcher } from "../../process/stdio-child.js";
import { spawnStdioChild } from "../../process/stdio-launcher.js";
import { codexCapabilities, type CodexCapabilities } from "../versions/capabilities.js";
import type { ResolvedCodex } from "../launch/codex-launch.js";
import { appServerLaunch } from "../app-server/app-server-launch.js";
import { AppServerSession } from "../app-server/app-server-session.js";
import { lookUpProjectTrust } from "./project-trust-lookup.js";
import { assertProjectConfigsAreFiles } from "./project-config-entries.js";
import {
  codexHomeOf,
  needsProjectConfigCheck,
  needsProjectRulesCheck,
  projectConfigFiles,
} from "./untrusted-project-guard.js";

/** Options of `checkProjectTrust()`: the directory and the resolved codex to ask about it. */
export interface ProjectTrustCheckOptions {
  /**
   * The codex to ask, resolved: `report.chosen` from `discoverCodex()`, or what a client's `resolveCodex()`
   * gives (not a path, a client or a launch).
   */
  codex: ResolvedCodex;
  /** The directory a turn would run in (as this machine knows it): an existing directory, relative to `process.cwd()`. */
  cwd: string;
  /** The environment codex runs with (its CODEX_HOME decides the user's config). Default `process.env`. */
  env?: NodeJS.ProcessEnv | undefined;
  /** The call's `trustProject`, to see what it would decide. */
  trustProject?: boolean | undefined;
  /**
   * Whether the call would have `approvals`: an untrusted turn with them is also refused where this codex applies
   * a repository's own `.codex/rules` whatever the trust (0.80–0.121) and the cwd or an ancestor has one.
   */
  approvals?: boolean | undefined;
  /** Per request. Default 15 000 ms. */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Starts the app-server; default: the real spawn. */
  launcher?: Launcher | undefined;
}

/**
 * What happens to the repository's own `.codex/` layer in a turn there: `not-read` (this codex reads no project
 * layer), `loaded` (trusted), `kept-out` (untrusted), `refused` (untrusted, but this codex would load the layer
 * anyway, so Rennet refuses the turn: `refusedFiles`).
 */
export type ProjectLayerEffect = "not-read" | "loaded" | "kept-out" | "refused";

/**
 * What `checkProjectTrust()` found: whether a turn in `cwd` would trust its project, and what that codex would
 * do with the repository's own `.codex/` layer. JSON-serializable.
 */
export interface ProjectTrustReport {
  cwd: string;
  codexVersion: string | null;
  trust: ProjectTrust;
  projectLayer: ProjectLayerEffect;
  /**
   * With `refused`: the `.codex/config.toml` files (with `approvals`, also the `.codex/rules` directories) found
   * in the cwd or its ancestors.
   */
  refusedFiles: string[];
  /**
   * Whether a trusted layer is limited on this codex (it cannot set the model provider, `notify` or profiles,
   * and its hooks need review: `projectLayerRestricted`); false where trusting a repository hands it those.
   */
  trustedLayerRestricted: boolean;
  /** Whether the repository's AGENTS.md reaches the model only when trusted (else whatever the trust). */
  agentsMdNeedsTrust: boolean;
}

const DEFAULT_TIMEOUT_MS = 15_000;

/**
 * Asks `codex` for the user's trust decision of `cwd` (options checked by the caller, `cwd` absolute) and
 * reports its effect. Rejects with `PROJECT_CONFIG_NOT_A_FILE` before anything starts (see
 * `assertProjectConfigsAreFiles`), `AppServerNotReadyError` (codex exited, refused or stalled before
 * `initialize` was answered), the lookup's request errors, or on abort with `signal.reason`. The app-server's
 * tree is gone when the promise settles.
 */
export async function checkProjectTrust(options: ProjectTrustCheckOptions): Promise<ProjectTrustReport> {
  const { codex, cwd, signal } = options;
  signal?.throwIfAborted();
  const env = options.env ?? process.env;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  await assertProjectConfigsAreFiles(cwd, codexHomeOf(env));
  const launch = appServerLaunch(codex.launch, [], { cwd, env });
  const session = AppServerSession.open({
    spec: launch.spec,
    launcher: options.launcher ?? spawnStdioChild,
    initializeTimeoutMs: timeoutMs,
    ...(signal ? { signal } : {}),
  });
  try {
    const init = await session.ready;
    const { decision } = await lookUpProjectTrust(session.connection, launch.protocolCwd, {
      trustProject: options.trustProject,
      timeoutMs,
    });
    signal?.throwIfAborted();
    const capabilities = codexCapabilities(init.codexVersion ?? codex.version);
    const look = {
      config: needsProjectConfigCheck(decision, capabilities),
      rules: needsProjectRulesCheck(decision, capabilities, options.approvals === true),
    };
    const refusedFiles =
      look.config || look.rules ? await projectConfigFiles(cwd, codexHomeOf(env), look) : [];
    return {
      cwd,
      codexVersion: capabilities.version,
      trust: decision,
      projectLayer: layerEffect(decision, capabilities, refusedFiles),
      refusedFiles,
      trustedLayerRestricted: capabilities.projectLayerRestricted,
      agentsMdNeedsTrust: capabilities.agentsMdNeedsTrust,
    };
  } catch (error) {
    signal?.throwIfAborted();
    throw error;
  } finally {
    await session.end({ graceMs: 1000 });
  }
}

function layerEffect(
  decision: ProjectTrust,
  capabilities: CodexCapabilities,
  refusedFiles: readonly string[],
): ProjectLayerEffect {
  if (!capabilities.projectConfigLayers) return "not-read";
  if (decision.level === "trusted") return "loaded";
  return refusedFiles.length > 0 ? "refused" : "kept-out";
}
