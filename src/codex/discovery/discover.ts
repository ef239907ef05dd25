import type { DiscoveryReport } from "../../discovery/discovery-report.js";
import { discoverExecutable, type DiscoverExecutableOptions } from "../../discovery/discover-executable.js";
import { CODEX_SPEC } from "./codex-spec.js";

/** The result of {@link discoverCodex}. JSON-serializable (for `rennet codex doctor --json`). */
export type CodexDiscoveryReport = DiscoveryReport<"CODEX_UNSUPPORTED_VERSION", "handshake">;

/**
 * Options of `discoverCodex()`: an override (`codexBin`), where it looks (environment, platform, home, cwd), the
 * login shell, the probe cache, deadlines and a signal.
 */
export interface DiscoverOptions extends Omit<DiscoverExecutableOptions, "explicitPath" | "launcher"> {
  /** Starts `app-server` for the handshake probe. Default: the app-server launcher with short graces. */
  launcher?: DiscoverExecutableOptions["launcher"] | undefined;
  /**
   * Probe exactly this file and nothing else (the CLI's `--codex-bin`): no other candidate is considered, and
   * the report says why it fails. Launch modes (node launcher, `.cmd`, WSL) apply as for any candidate.
   */
  codexBin?: string | undefined;
}

/**
 * Finds the user's Codex the way a GUI app must, without trusting the inherited PATH: `RENNET_CODEX_BIN` first,
 * then the login-shell PATH, the process PATH, known install locations and desktop-app bundles, each candidate
 * probed (executable, `--version`, `app-server` `initialize`) in parallel with deadlines. The chosen command is
 * the best-ranked candidate that passes all three. Never throws except with `signal.reason` on abort.
 */
export function discoverCodex(options: DiscoverOptions = {}): Promise<CodexDiscoveryReport> {
  const { codexBin, ...rest } = options;
  return discoverExecutable(CODEX_SPEC, codexBin === undefined ? rest : { ...rest, explicitPath: codexBin });
}
