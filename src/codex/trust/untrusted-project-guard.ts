/**
 * Where codex loads a repository's own `.codex/config.toml` whatever the project's trust (0.80–0.87: its MCP
 * servers start, its `notify` command runs, its `model_provider` receives the requests), an untrusted turn must
 * not start a thread in a directory that has one. Rennet looks for such files itself (it only checks that they
 * exist; it reads none): in the cwd and every ancestor, a superset of what codex reads (the directories from the
 * repository root, or a non-repository cwd, down to the cwd), except the user's own CODEX_HOME.
 */
import { realpath, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { envGet } from "../../discovery/platform-env.js";
import { RennetError } from "../../errors.js";
import { CAPABILITY_RANGES, type CodexCapabilities } from "../versions/capabilities.js";
import type { TrustDecision } from "./project-trust.js";
import { CODEX_UPGRADE_COMMAND } from "../versions/supported-version.js";
import { directoryChain } from "./directory-chain.js";

/** The first version whose untrusted project layers stay out (`projectLayersNeedTrust`). */
const LAYERS_NEED_TRUST_FROM = CAPABILITY_RANGES.projectLayersNeedTrust.from ?? "";

/**
 * An untrusted turn was refused before any thread started: this codex would load the repository's own
 * `.codex/config.toml` (`files`) although the project is untrusted. Code `UNTRUSTED_PROJECT_CONFIG`.
 */
export class UntrustedProjectConfigError extends RennetError<"UNTRUSTED_PROJECT_CONFIG"> {
  override readonly name = "UntrustedProjectConfigError";
  readonly version: string | null;
  readonly files: readonly string[];

  constructor(version: string | null, files: readonly string[]) {
    super(
      "UNTRUSTED_PROJECT_CONFIG",
      `codex ${version ?? "(unknown version)"} loads a repository's own .codex/config.toml whatever the ` +
        `project's trust (found ${files.join(", ")}): its MCP servers, notify command and model provider would ` +
        "take effect in this untrusted project, so no thread was started. Upgrade Codex to " +
        `${LAYERS_NEED_TRUST_FROM} or newer (\`${CODEX_UPGRADE_COMMAND}\`), or, if you trust this ` +
        "repository's files, trust the project for this call (trustProject: true, --trust-project).",
      { details: { version, files: [...files] } },
    );
    this.version = version;
    this.files = files;
  }
}

/** Whether a decision on this codex needs the file check: untrusted, and layers loaded regardless of trust. */
export function needsProjectConfigCheck(
  decision: Pick<TrustDecision, "level">,
  capabilities: Pick<CodexCapabilities, "projectConfigLayers" | "projectLayersNeedTrust">,
): boolean {
  return (
    decision.level === "untrusted" && capabilities.projectConfigLayers && !capabilities.projectLayersNeedTrust
  );
}

/**
 * The CODEX_HOME a child with `env` uses: `CODEX_HOME`, else `<home>/.codex`, where home is `HOME` on POSIX and the
 * user's profile folder on Windows (codex asks Windows for it and never reads `HOME`, which Git for Windows or a
 * user may set). Pure but for `os.homedir()`.
 */
export function codexHomeOf(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string {
  const codexHome = envGet(env, "CODEX_HOME", platform);
  if (codexHome !== undefined) return path.resolve(codexHome);
  const home = platform === "win32" ? env.USERPROFILE : env.HOME || env.USERPROFILE;
  return path.join(home || os.homedir(), ".codex");
}

/**
 * Every `.codex/config.toml` in `cwd` or an ancestor that is not `codexHome`'s own, closest first. `codexHome`
 * itself is resolved only once such a file is found: a directory without one never touches the Codex home.
 */
export async function projectConfigFiles(cwd: string, codexHome: string): Promise<string[]> {
  let own: Promise<string> | null = null;
  const found: string[] = [];
  for (const directory of directoryChain(cwd)) {
    const dotCodex = path.join(directory, ".codex");
    const file = path.join(dotCodex, "config.toml");
    const isFile = await stat(file).then(
      (info) => info.isFile(),
      () => false,
    );
    if (!isFile) continue;
    own ??= realpath(codexHome).catch(() => path.resolve(codexHome));
    if ((await realpath(dotCodex).catch(() => dotCodex)) === (await own)) continue;
    found.push(file);
  }
  return found;
}

/**
 * Rejects with {@link UntrustedProjectConfigError} when `decision` is untrusted, this codex loads project layers
 * regardless of trust, and `cwd` (on this machine) or an ancestor has a `.codex/config.toml` other than
 * CODEX_HOME's. Resolves otherwise.
 */
export async function assertProjectConfigContained(
  decision: Pick<TrustDecision, "level">,
  capabilities: Pick<CodexCapabilities, "version" | "projectConfigLayers" | "projectLayersNeedTrust">,
  where: { cwd: string; codexHome: string },
): Promise<void> {
  if (!needsProjectConfigCheck(decision, capabilities)) return;
  const files = await projectConfigFiles(where.cwd, where.codexHome);
  if (files.length > 0) throw new UntrustedProjectConfigError(capabilities.version, files);
}
