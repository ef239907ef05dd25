/**
 * Where codex loads a repository's own `.codex/config.toml` whatever the project's trust (0.80–0.87: its MCP
 * servers start, its `notify` command runs, its `model_provider` receives the requests), an untrusted turn must
 * not start a thread in a directory that has one. Where codex applies a repository's own `.codex/rules/`
 * whatever the trust (0.80–0.121: a command a rule allows runs unasked and outside the sandbox), an untrusted
 * turn whose approvals the app answers must not start in a directory that has one (without approvals nothing
 * asks and the turn has full access, so a rule allows nothing more). Rennet looks for them itself (it only
 * checks that they exist; it reads none): in the cwd and every ancestor, a superset of what codex reads (the
 * directories from the repository root, or a non-repository cwd, down to the cwd), except the user's own
 * CODEX_HOME.
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
/** The first version whose untrusted project rules stay out (`projectRulesNeedTrust`). */
const RULES_NEED_TRUST_FROM = CAPABILITY_RANGES.projectRulesNeedTrust.from ?? "";

/**
 * An untrusted turn was refused before any thread started: this codex would apply the repository's own
 * `.codex/config.toml` or `.codex/rules` (`files`) although the project is untrusted. Code
 * `UNTRUSTED_PROJECT_CONFIG`.
 */
export class UntrustedProjectConfigError extends RennetError<"UNTRUSTED_PROJECT_CONFIG"> {
  override readonly name = "UntrustedProjectConfigError";
  readonly version: string | null;
  readonly files: readonly string[];

  constructor(version: string | null, files: readonly string[]) {
    const configs = files.filter((file) => path.basename(file) === CONFIG_FILE);
    const rules = files.filter((file) => path.basename(file) !== CONFIG_FILE);
    const effects = [
      ...(configs.length > 0
        ? [
            `loads a repository's own .codex/config.toml whatever the project's trust (found ${configs.join(", ")}): ` +
              "its MCP servers, notify command and model provider would take effect in this untrusted project",
          ]
        : []),
      ...(rules.length > 0
        ? [
            `applies a repository's own .codex/rules whatever the project's trust (found ${rules.join(", ")}): ` +
              "a command its rules allow would run without asking your approvals handler, outside the sandbox",
          ]
        : []),
    ];
    super(
      "UNTRUSTED_PROJECT_CONFIG",
      `codex ${version ?? "(unknown version)"} ${effects.join("; it also ")}, so no thread was started. ` +
        `Upgrade Codex to ${rules.length > 0 ? RULES_NEED_TRUST_FROM : LAYERS_NEED_TRUST_FROM} or newer ` +
        `(\`${CODEX_UPGRADE_COMMAND}\`), or, if you trust this repository's files, trust the project for this ` +
        "call (trustProject: true, --trust-project).",
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
 * Whether an untrusted turn on this codex needs the rules check: the app answers its approvals (`asking`) and
 * this codex applies a project's rules regardless of trust.
 */
export function needsProjectRulesCheck(
  decision: Pick<TrustDecision, "level">,
  capabilities: Pick<CodexCapabilities, "projectConfigLayers" | "projectRulesNeedTrust">,
  asking: boolean,
): boolean {
  return (
    asking &&
    decision.level === "untrusted" &&
    capabilities.projectConfigLayers &&
    !capabilities.projectRulesNeedTrust
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

/** What a project's `.codex/` may hold that Rennet looks for: `config.toml` (a file), `rules` (a directory). */
const CONFIG_FILE = "config.toml";
const RULES_DIRECTORY = "rules";

/**
 * Every `.codex/config.toml` (and, with `rules`, every `.codex/rules` directory) in `cwd` or an ancestor that is
 * not `codexHome`'s own, closest first. `codexHome` itself is resolved only once such an entry is found: a
 * directory without one never touches the Codex home.
 */
export async function projectConfigFiles(
  cwd: string,
  codexHome: string,
  look: { config: boolean; rules: boolean } = { config: true, rules: false },
): Promise<string[]> {
  let own: Promise<string> | null = null;
  const found: string[] = [];
  for (const directory of directoryChain(cwd)) {
    const dotCodex = path.join(directory, ".codex");
    const here = [
      ...(look.config && (await isEntry(path.join(dotCodex, CONFIG_FILE), "file")) ? [CONFIG_FILE] : []),
      ...(look.rules && (await isEntry(path.join(dotCodex, RULES_DIRECTORY), "directory"))
        ? [RULES_DIRECTORY]
        : []),
    ];
    if (here.length === 0) continue;
    own ??= realpath(codexHome).catch(() => path.resolve(codexHome));
    if ((await realpath(dotCodex).catch(() => dotCodex)) === (await own)) continue;
    found.push(...here.map((name) => path.join(dotCodex, name)));
  }
  return found;
}

/** Whether `entry` (symlinks followed) is a regular file or a directory; never opens it. */
function isEntry(entry: string, kind: "file" | "directory"): Promise<boolean> {
  return stat(entry).then(
    (info) => (kind === "file" ? info.isFile() : info.isDirectory()),
    () => false,
  );
}

/**
 * Rejects with {@link UntrustedProjectConfigError} when `decision` is untrusted and `cwd` (on this machine) or an
 * ancestor has, other than CODEX_HOME's, a `.codex/config.toml` this codex loads regardless of trust, or, when
 * the app answers the turn's approvals (`asking`), a `.codex/rules` this codex applies regardless of trust.
 * Resolves otherwise.
 */
export async function assertProjectConfigContained(
  decision: Pick<TrustDecision, "level">,
  capabilities: Pick<
    CodexCapabilities,
    "version" | "projectConfigLayers" | "projectLayersNeedTrust" | "projectRulesNeedTrust"
  >,
  where: { cwd: string; codexHome: string; asking: boolean },
): Promise<void> {
  const look = {
    config: needsProjectConfigCheck(decision, capabilities),
    rules: needsProjectRulesCheck(decision, capabilities, where.asking),
  };
  if (!look.config && !look.rules) return;
  const files = await projectConfigFiles(where.cwd, where.codexHome, look);
  if (files.length > 0) throw new UntrustedProjectConfigError(capabilities.version, files);
}
