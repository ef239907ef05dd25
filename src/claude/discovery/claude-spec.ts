import type { ExecutableSpec } from "../../discovery/executable-spec.js";
import { claudeCapabilities, MINIMUM_SUPPORTED_CLAUDE } from "../capabilities.js";
import { CLAUDE_INSTALL_HINT } from "../claude-unavailable-error.js";
import { formatClaudeVersion, looksLikeClaudeVersionOutput, parseClaudeVersion } from "../claude-version.js";
import { ClaudeUnsupportedVersionError } from "../errors.js";
import { claudeCompanions, claudeFileNames, claudeOwnDirs } from "./claude-files.js";
import { npmStubPreferredLaunch } from "./npm-native-claude.js";

/** How launch errors name Claude Code. */
export const CLAUDE_NAMING = { name: "Claude Code", explicitFlag: "--claude-bin" } as const;

/** The header line under which npm's `cli.js` (up to 2.1.112) states its version: `// Version: 1.0.128`. */
export const CLAUDE_VERSION_HEADER = "// Version: ";

/** The version in `claude --version` output (`2.1.332 (Claude Code)`), or null when it does not name Claude Code. */
export function parseClaudeVersionOutput(output: string): string | null {
  if (!looksLikeClaudeVersionOutput(output)) return null;
  const version = parseClaudeVersion(output);
  return version === null ? null : formatClaudeVersion(version);
}

/** Whether Rennet drives this version (from {@link MINIMUM_SUPPORTED_CLAUDE}). */
export function isSupportedClaudeVersion(version: string): boolean {
  return claudeCapabilities(version).supported;
}

/**
 * Claude Code for the discovery engine: `RENNET_CLAUDE_BIN`, `claude` (`claude.exe`, then `claude.cmd` on
 * Windows, with npm's package `claude.exe` behind a `.cmd`), its own install directories, npm's placeholder
 * `bin/claude.exe` replaced by the platform package's binary, and versions from 2.0.64.
 *
 * No verify step: `--version` already proves the file is Claude Code (every release prints `<version> (Claude
 * Code)`) and which capabilities it has, and writes nothing on a supported release (2.0.77, 2.1.112 and 2.1.332
 * measured). Starting more than that would not be a cheap handshake: `claude -p` rewrites the user's
 * `~/.claude.json` on every start, and reaches `system/init` only after a user message. A `cli.js` of the 1.0
 * releases, whose `--version` does write (`~/.claude.json`, `~/.claude/statsig/`, npm's update notifier), is
 * refused from its `// Version:` header without being run.
 */
export const CLAUDE_SPEC: ExecutableSpec<"CLAUDE_UNSUPPORTED_VERSION", never> = {
  name: "claude",
  naming: CLAUDE_NAMING,
  overrideVariable: "RENNET_CLAUDE_BIN",
  fileNames: claudeFileNames,
  ownDirs: claudeOwnDirs,
  companions: claudeCompanions,
  preferredLaunch: npmStubPreferredLaunch,
  versionHeader: CLAUDE_VERSION_HEADER,
  versionArgs: ["--version"],
  parseVersion: parseClaudeVersionOutput,
  isSupportedVersion: isSupportedClaudeVersion,
  unsupportedVersion: {
    code: "CLAUDE_UNSUPPORTED_VERSION",
    message: (version) => new ClaudeUnsupportedVersionError(version, MINIMUM_SUPPORTED_CLAUDE, null).message,
  },
  cwdRelativeVariables: ["CLAUDE_CONFIG_DIR"],
  cacheTag: "claude-probe/1",
  guidance: {
    install: CLAUDE_INSTALL_HINT,
    upgrade: "claude update, or npm i -g @anthropic-ai/claude-code@latest",
    doctorCommand: "rennet claude doctor",
    launchArgs: ["-p", "--input-format", "stream-json", "--output-format", "stream-json"],
  },
};
