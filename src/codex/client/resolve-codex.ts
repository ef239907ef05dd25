import { explicitCodex, type ResolvedCodex } from "../launch/codex-launch.js";
import type { Launcher } from "../../process/stdio-child.js";
import { CodexUnavailableError } from "../codex-unavailable-error.js";
import { assertProjectConfigsAreFiles } from "../trust/project-config-entries.js";
import { codexHomeOf } from "../trust/untrusted-project-guard.js";
import type { CodexClientOptions, ResolveCodexOptions } from "./client-options.js";
import { discoverCodex, loadExplicitCodex } from "./lazy-entries.js";

/** Who decides which Codex runs: the caller's `codex`, an injected launcher, or discovery. */
export type CodexTarget = Pick<CodexClientOptions, "codex" | "discovery" | "env"> & { launcher?: Launcher };

/**
 * Resolves the Codex of one target, and keeps the answer: an explicit path is checked once (a failed check is
 * not kept: the next call checks again), discovery's choice is kept per working directory. A client holds one.
 */
export class CodexResolver {
  readonly #target: CodexTarget;
  /** Discovery's choice per working directory. */
  readonly #discovered = new Map<string, ResolvedCodex>();
  /** The checked `codex` path, once it passed. */
  #explicit: Promise<ResolvedCodex> | null = null;

  constructor(target: CodexTarget) {
    this.#target = target;
  }

  /**
   * The Codex for `cwd`: the `codex` option as given (a path checked once; with an injected launcher not
   * checked on this file system), else (with an injected launcher) `RENNET_CODEX_BIN` or `codex`, else
   * discovery's choice. Rejects with {@link CodexUnavailableError} (its `report` lists every candidate), before
   * discovery with `PROJECT_CONFIG_NOT_A_FILE` (see `assertProjectConfigsAreFiles`) or, on abort, with
   * `signal.reason`.
   */
  async resolve(options: ResolveCodexOptions = {}): Promise<ResolvedCodex> {
    options.signal?.throwIfAborted();
    const { codex, launcher } = this.#target;
    if (typeof codex === "string") {
      if (launcher) return explicitCodex(codex);
      this.#explicit ??= loadExplicitCodex()
        .then((module) =>
          module.usableExplicitCodex(codex, process.platform, this.#target.env ?? process.env),
        )
        .catch((error: unknown) => {
          this.#explicit = null;
          throw error;
        });
      return this.#explicit;
    }
    if (codex) return codex;
    const env = this.#target.env ?? process.env;
    if (launcher) {
      const fromEnv = env.RENNET_CODEX_BIN;
      return explicitCodex(fromEnv !== undefined && fromEnv !== "" ? fromEnv : "codex");
    }
    const cwd = options.cwd ?? process.cwd();
    const known = this.#discovered.get(cwd);
    if (known) return known;
    // discovery's handshake probe starts codex in `cwd`, where it reads the project's config
    await assertProjectConfigsAreFiles(cwd, codexHomeOf(env));
    const report = await discoverCodex({
      ...this.#target.discovery,
      env,
      cwd,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    options.signal?.throwIfAborted();
    if (!report.available || !report.chosen) throw new CodexUnavailableError(report);
    this.#discovered.set(cwd, report.chosen);
    return report.chosen;
  }
}

/** The Codex `target` runs in `options.cwd`, resolved once (see {@link CodexResolver.resolve}). */
export function resolveCodex(target: CodexTarget, options: ResolveCodexOptions = {}): Promise<ResolvedCodex> {
  return new CodexResolver(target).resolve(options);
}
