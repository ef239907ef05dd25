import type { ExecutableSpec, ProbeStepResult, VerifyContext } from "../../discovery/executable-spec.js";
import type { ExecutableLaunch } from "../../discovery/executable-launch.js";
import type { Launcher } from "../../process/stdio-child.js";
import { createStdioLauncher } from "../../process/stdio-launcher.js";
import { CODEX_NAMING, codexLaunchSpec } from "../launch/codex-launch.js";
import { codexCompanions, codexFileNames, codexOwnDirs } from "../launch/codex-files.js";
import { NPM_LAUNCHER_MARKER, npmNativePreferredLaunch } from "../launch/npm-native.js";
import { isSupportedCodexVersion } from "../versions/capabilities.js";
import { CODEX_UPGRADE_COMMAND, unsupportedVersionMessage } from "../versions/supported-version.js";
import { parseCodexVersion } from "../versions/version-text.js";
import { probeHandshake } from "./handshake-probe.js";
import { assertProjectConfigsAreFiles } from "../trust/project-config-entries.js";
import { codexHomeOf } from "../trust/untrusted-project-guard.js";
import { errorMessage } from "../../errors.js";

/**
 * The handshake probe's default launcher: the app-server launcher (own process group, tree marker, spawn
 * registry, tree walk, whole-tree termination) with short graces, since a probe has no turn to wind down.
 */
const launchProbeAppServer: Launcher = createStdioLauncher({ stdinGraceMs: 250, graceMs: 250 });

/**
 * `codex app-server` answers `initialize`; the child tree is ended whatever happened. Fails without starting it
 * where the probe's cwd has a `.codex/config.toml` that is not a regular file (codex would read it at startup:
 * see `assertProjectConfigsAreFiles`); only a pass is cached, so the candidate is probed again elsewhere.
 */
async function verifyHandshake(launch: ExecutableLaunch, context: VerifyContext): Promise<ProbeStepResult> {
  const { cwd, baseEnv } = context.launchOptions;
  if (cwd !== undefined) {
    try {
      await assertProjectConfigsAreFiles(cwd, codexHomeOf(baseEnv ?? process.env));
    } catch (error) {
      return { type: "fail", reason: errorMessage(error), ms: 0 };
    }
  }
  return probeHandshake(codexLaunchSpec(launch, ["app-server"], context.launchOptions), {
    launcher: context.launcher ?? launchProbeAppServer,
    timeoutMs: context.timeoutMs,
    signal: context.signal,
  });
}

/**
 * Codex for the discovery engine: `RENNET_CODEX_BIN`, `codex` (`codex.exe`, then `codex.cmd` on Windows, with
 * npm's vendor `codex.exe` behind a `.cmd`), the standalone package and the desktop apps' CLIs, npm's launcher
 * replaced by the native binary it would start, versions from 0.72.0, and the `initialize` handshake. The cache
 * tag and key parts are those of every earlier release, so a warm cache stays warm.
 */
export const CODEX_SPEC: ExecutableSpec<"CODEX_UNSUPPORTED_VERSION", "handshake"> = {
  name: "codex",
  naming: CODEX_NAMING,
  overrideVariable: "RENNET_CODEX_BIN",
  fileNames: codexFileNames,
  ownDirs: codexOwnDirs,
  companions: codexCompanions,
  preferredLaunch: npmNativePreferredLaunch,
  scriptMarker: NPM_LAUNCHER_MARKER,
  versionArgs: ["--version"],
  parseVersion: parseCodexVersion,
  isSupportedVersion: isSupportedCodexVersion,
  unsupportedVersion: { code: "CODEX_UNSUPPORTED_VERSION", message: unsupportedVersionMessage },
  verify: { name: "handshake", run: verifyHandshake },
  cwdRelativeVariables: ["CODEX_HOME"],
  cacheTag: "probe/1",
  guidance: {
    install: "npm i -g @openai/codex, or the standalone installer",
    upgrade: CODEX_UPGRADE_COMMAND,
    doctorCommand: "rennet codex doctor",
    launchArgs: ["app-server"],
  },
};
