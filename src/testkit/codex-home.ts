import { writeFile } from "node:fs/promises";
import path from "node:path";
import { stringify } from "smol-toml";
import { isPlainRecord } from "../json-record.js";
import { fallbackModelCatalog, loopbackModelCatalog } from "./model-catalog.js";
import { checkModelUrl, withLoopbackNoProxy } from "./loopback-env.js";
import { createThrowAwayDir, removeThrowAwayDir } from "./throw-away-dir.js";

/** Options of {@link createCodexHome} and {@link codexHomeConfig}. */
export interface CodexHomeOptions {
  /** Base URL of the model API, e.g. the loopback server's `url` (`http://127.0.0.1:PORT/v1`). */
  modelUrl: string;
  /** Model slug sent to the provider. Default `"mock-model"` (codex warns that it has no metadata for it). */
  model?: string | undefined;
  /** Deep-merged over the generated config (plain objects merge, anything else replaces). */
  extraToml?: Record<string, unknown> | undefined;
  /** Where the temporary directory is created. Default `os.tmpdir()`. */
  parentDir?: string | undefined;
  /**
   * Write a model catalog for the model slug (`model_catalog_json`, see {@link loopbackModelCatalog}), so codex
   * offers the model its file-editing `apply_patch` tool. Default false.
   */
  modelCatalog?: boolean | undefined;
  /**
   * Let codex warn about this test machine, as it would for a user: that `bubblewrap` is not on PATH (a
   * `configWarning`) and that it has no metadata for the loopback model (a `warning`). Default false: the home
   * sets `sandbox_mode = "danger-full-access"` (Rennet's turns run so anyway; codex checks bubblewrap only for
   * a sandboxed default) and writes a model catalog equal to codex's fallback metadata
   * ({@link fallbackModelCatalog}), so a test sees only the warnings its own code caused.
   */
  environmentWarnings?: boolean | undefined;
}

/** A throw-away CODEX_HOME holding a `config.toml` that points codex at a loopback model. */
export interface CodexHome {
  readonly dir: string;
  readonly configPath: string;
  /**
   * `base` (default `process.env`) plus `CODEX_HOME=dir`, with `127.0.0.1` and `localhost` added to
   * `NO_PROXY`/`no_proxy`: codex sends even loopback requests through `HTTP(S)_PROXY` otherwise.
   */
  env(base?: NodeJS.ProcessEnv): NodeJS.ProcessEnv;
  /** Removes the directory. Idempotent; call it after the codex process has exited. */
  cleanup(): Promise<void>;
}

/** The model slug written into the config unless `model` is given. */
const DEFAULT_MODEL = "mock-model";

/** The provider id written into the config. */
export const LOOPBACK_PROVIDER_ID = "mock";

/**
 * The config codex 0.171.0 needs to run offline against a loopback model (verified with strace: no DNS
 * lookup, no connection other than the model's):
 * - a `responses` provider without auth, retries 0, websockets off;
 * - `analytics.enabled=false` (otherwise it resolves chatgpt.com) and `features.plugins=false` (otherwise the
 *   plugin sync resolves github.com and api.github.com);
 * - `features.unbounded_connection_retries=false`: otherwise a refused connection to the model is retried
 *   forever ("Reconnecting... waiting for network", `willRetry:true`) instead of failing the turn;
 * - `allow_login_shell=false` and `features.shell_snapshot=false`: commands run as `bash -c`, not `bash -lc`,
 *   and no snapshot shell sources `~/.bashrc`, so the developer's dotfiles cannot slow down or block a
 *   command (a pyenv rehash lock in `.bashrc` kept every `bash -lc` command waiting for over 10 s);
 * - without `environmentWarnings`, `sandbox_mode = "danger-full-access"`: codex warns that bubblewrap is missing
 *   only when the default sandbox would use it (0.120 and newer).
 * Throws `TESTKIT_OPTIONS_INVALID` when `modelUrl` is not an absolute http(s) URL.
 */
export function codexHomeConfig(options: CodexHomeOptions): Record<string, unknown> {
  checkModelUrl("codexHomeConfig", options.modelUrl);
  const base: Record<string, unknown> = {
    model: options.model ?? DEFAULT_MODEL,
    model_provider: LOOPBACK_PROVIDER_ID,
    ...(options.environmentWarnings ? {} : { sandbox_mode: "danger-full-access" }),
    allow_login_shell: false,
    analytics: { enabled: false },
    features: { plugins: false, unbounded_connection_retries: false, shell_snapshot: false },
    model_providers: {
      [LOOPBACK_PROVIDER_ID]: {
        name: "Rennet loopback model",
        base_url: options.modelUrl,
        wire_api: "responses",
        request_max_retries: 0,
        stream_max_retries: 0,
        supports_websockets: false,
      },
    },
  };
  return options.extraToml === undefined ? base : deepMerge(base, options.extraToml);
}

/** {@link codexHomeConfig} rendered as TOML. */
export function renderCodexHomeConfig(options: CodexHomeOptions): string {
  return stringify(codexHomeConfig(options));
}

/**
 * Creates a temporary CODEX_HOME with the loopback `config.toml` and, for `modelCatalog` or unless
 * `environmentWarnings`, a model catalog for the model slug.
 */
export async function createCodexHome(options: CodexHomeOptions): Promise<CodexHome> {
  checkModelUrl("createCodexHome", options.modelUrl);
  const dir = await createThrowAwayDir("rennet-codex-home-", options.parentDir, async (home) => {
    let config = options;
    const slug = options.model ?? DEFAULT_MODEL;
    const catalog = options.modelCatalog
      ? loopbackModelCatalog(slug)
      : options.environmentWarnings
        ? null
        : fallbackModelCatalog(slug);
    if (catalog) {
      const catalogPath = path.join(home, "model-catalog.json");
      await writeFile(catalogPath, `${JSON.stringify(catalog, null, 2)}\n`, "utf8");
      config = { ...options, extraToml: { model_catalog_json: catalogPath, ...options.extraToml } };
    }
    await writeFile(path.join(home, "config.toml"), renderCodexHomeConfig(config), "utf8");
  });
  const configPath = path.join(dir, "config.toml");
  return {
    dir,
    configPath,
    env(base = process.env) {
      return withLoopbackNoProxy({ ...base, CODEX_HOME: dir });
    },
    cleanup: () => removeThrowAwayDir(dir),
  };
}

function deepMerge(
  target: Record<string, unknown>,
  source: Record<string, unknown>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...target };
  for (const [key, value] of Object.entries(source)) {
    const existing = merged[key];
    const next = isPlainRecord(existing) && isPlainRecord(value) ? deepMerge(existing, value) : value;
    Object.defineProperty(merged, key, { value: next, enumerable: true, writable: true, configurable: true });
  }
  return merged;
}
