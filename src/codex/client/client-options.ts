import type { Launcher } from "../../process/stdio-child.js";
import type { ResolvedCodex } from "../launch/codex-launch.js";
import type { DiscoverOptions } from "../discovery/discover.js";

/** Options of `createCodex()`; the keys it knows are listed in `known-options.ts`. */
export interface CodexClientOptions {
  /**
   * Which Codex to run: a path (used as given: no discovery, no probe, no login shell; a relative one is resolved
   * against `process.cwd()`, never against a call's `cwd`), or a
   * {@link ResolvedCodex} (e.g. `report.chosen` from `discoverCodex()`). Default: discovery, once per client
   * and working directory (`RENNET_CODEX_BIN` first, then the login-shell PATH, the process PATH, known install
   * locations; probes are cached on disk). When nothing works the turn fails before spawning, with
   * `failure.code: "CODEX_UNAVAILABLE"` and every candidate's reason.
   */
  codex?: string | ResolvedCodex | undefined;
  /** Options for discovery (used only when `codex` is not given). */
  discovery?: Omit<DiscoverOptions, "env" | "cwd" | "signal"> | undefined;
  /** Environment for the child. Default: `process.env`. */
  env?: NodeJS.ProcessEnv | undefined;
  /**
   * Starts the app-server child; tests pass `InMemoryAppServer#launcher`. With an injected launcher and no
   * `codex`, nothing is discovered: the launcher decides what runs (it is given `RENNET_CODEX_BIN`, else `codex`).
   */
  launcher?: Launcher | undefined;
  /** Grace after `turn/interrupt` before the tree is killed. Default 2000 ms. */
  interruptGraceMs?: number | undefined;
  /** Reap process trees left by a Rennet process that died hard, before each session. Default true. */
  reapOrphans?: boolean | undefined;
}

/** Options of `resolveCodex()`: the Codex the turns in `cwd` would run, found without starting a turn. */
export interface ResolveCodexOptions {
  /** The working directory of the turns (it decides the locus: a WSL path runs the Codex of that distribution). */
  cwd?: string | undefined;
  /** Stops discovery (and every process it started); the promise then rejects with `signal.reason`. */
  signal?: AbortSignal | undefined;
}
