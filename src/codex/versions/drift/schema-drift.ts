/**
 * `codex app-server generate-json-schema` for one binary, compared with what Rennet sends and relies on
 * ({@link compareSchema}), cached per binary identity. The one place that runs codex for the drift check.
 */
import { mkdtemp, readFile, realpath, rm, stat } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { runCommand } from "../../../process/run-command.js";
import { codexLaunchSpec, type ResolvedCodex } from "../../launch/codex-launch.js";
import { createHash } from "node:crypto";
import { defaultCacheDir } from "../../../discovery/probe-cache.js";
import { parseCodexVersion } from "../version-text.js";
import { describeRunFailure } from "../../../process/run-failure.js";
import { KNOWN_NOTIFICATION_METHODS } from "../../protocol/known-methods.js";
import { readDriftCache, writeDriftCache } from "./drift-cache.js";
import { compareSchema, type DriftComparison } from "./drift-compare.js";
import { DRIFT_EXPECTATIONS } from "./drift-expectations.js";
import { SCHEMA_BUNDLE_FILE } from "./schema-bundle.js";
import { errorMessage } from "../../../errors.js";

export interface SchemaDriftOptions {
  /** The binary (discovery's `chosen`, or `explicitCodex(path)`); its `path` is its identity. */
  codex: ResolvedCodex;
  /** Environment of the child (default `process.env`). CODEX_HOME is replaced by a throw-away directory. */
  env?: NodeJS.ProcessEnv;
  /** Where `drift-cache.json` lives; null disables the cache. Default: discovery's cache directory. */
  cacheDir?: string | null;
  /** Ignore a cached result (it is still written). */
  refresh?: boolean;
  /** Default 30 s. */
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** The drift check's result. JSON-serializable. */
export interface SchemaDriftReport {
  /** The binary checked and its identity (null when it could not be read: no caching then). */
  binary: { command: string; path: string | null; size: number | null; mtimeMs: number | null };
  version: string | null;
  cached: boolean;
  /** Null when the schema could not be generated or read (`error` says why). */
  comparison: DriftComparison | null;
  error: string | null;
}

const EXPECTATIONS_KEY = digestKey([DRIFT_EXPECTATIONS, [...KNOWN_NOTIFICATION_METHODS].sort()]);

/** A short key for a JSON-able list of parts (the expectations alone are kilobytes). */
function digestKey(parts: readonly unknown[]): string {
  return createHash("sha256").update(JSON.stringify(parts)).digest("hex").slice(0, 32);
}

/** Generates the binary's schema (throw-away CODEX_HOME and output directory) and compares it. */
export async function checkSchemaDrift(options: SchemaDriftOptions): Promise<SchemaDriftReport> {
  const { codex } = options;
  const env = options.env ?? process.env;
  const report: SchemaDriftReport = {
    binary: { command: codex.path, path: null, size: null, mtimeMs: null },
    version: codex.version,
    cached: false,
    comparison: null,
    error: null,
  };
  if (codex.launch.type === "wsl") {
    report.error = "the drift check does not run a Codex inside WSL";
    return report;
  }
  try {
    const real = await realpath(codex.path);
    const info = await stat(real);
    report.binary = { command: codex.path, path: real, size: info.size, mtimeMs: info.mtimeMs };
  } catch {
    // a bare command name (found on PATH by the spawn) has no identity here: no caching
  }
  const cacheDir = options.cacheDir === undefined ? defaultCacheDir(env) : options.cacheDir;
  const key =
    report.binary.path === null
      ? null
      : digestKey([
          "drift/1",
          report.binary.path,
          report.binary.size,
          report.binary.mtimeMs,
          EXPECTATIONS_KEY,
        ]);
  if (cacheDir && key && !options.refresh) {
    const hit = await readDriftCache(cacheDir, key);
    if (hit)
      return { ...report, version: report.version ?? hit.version, cached: true, comparison: hit.comparison };
  }

  const out = await mkdtemp(path.join(os.tmpdir(), "rennet-schema-"));
  const home = await mkdtemp(path.join(os.tmpdir(), "rennet-schema-home-"));
  try {
    const childEnv = { ...env, CODEX_HOME: home };
    const run = (args: string[]): ReturnType<typeof runCommand> =>
      runCommand(codexLaunchSpec(codex.launch, args, { baseEnv: childEnv }), {
        timeoutMs: options.timeoutMs ?? 30_000,
        signal: options.signal,
        graceMs: 1000,
      });
    if (report.version === null) {
      const version = await run(["--version"]);
      if (version.type === "exited" && version.code === 0) {
        report.version = parseCodexVersion(version.stdout) ?? parseCodexVersion(version.stderr);
      }
    }
    const generated = await run(["app-server", "generate-json-schema", "--out", out]);
    if (generated.type === "aborted") throw options.signal?.reason;
    if (generated.type !== "exited" || generated.code !== 0) {
      report.error = `generate-json-schema ${describeRunFailure(generated, options.timeoutMs ?? 30_000)}`;
      return report;
    }
    let bundle: unknown;
    try {
      bundle = JSON.parse(await readFile(path.join(out, SCHEMA_BUNDLE_FILE), "utf8"));
    } catch (error) {
      report.error = `could not read ${SCHEMA_BUNDLE_FILE}: ${errorMessage(error)}`;
      return report;
    }
    report.comparison = compareSchema(bundle);
    if (cacheDir && key)
      await writeDriftCache(cacheDir, key, { version: report.version, comparison: report.comparison });
    return report;
  } finally {
    await rm(out, { recursive: true, force: true });
    await rm(home, { recursive: true, force: true });
  }
}
