import { windowsFolders, type CandidateDirsInput, type OwnDir } from "../../discovery/candidate-dirs.js";
import type { CompanionLookup } from "../../discovery/executable-spec.js";
import type { FoundFile } from "../../discovery/locus-host.js";
import { pathApi } from "../../discovery/platform-env.js";

/** File names looked for in each directory on Windows, best first. `claude.ps1` is never a candidate. */
export const WINDOWS_CLAUDE_NAMES = ["claude.exe", "claude.cmd"] as const;

/** The file names looked for on a platform. */
export function claudeFileNames(platform: NodeJS.Platform): readonly string[] {
  return platform === "win32" ? WINDOWS_CLAUDE_NAMES : ["claude"];
}

/**
 * The native `claude.exe` npm's Windows shim `claude.cmd` starts (`"%dp0%\node_modules\@anthropic-ai\claude-code\
 * bin\claude.exe" %*`, from 2.1.113): started directly, it needs neither `cmd.exe` nor node. Pure.
 */
export function npmClaudeExeBehindCmd(cmdFile: string): string {
  const w = pathApi("win32");
  return w.join(w.dirname(cmdFile), "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe");
}

/** On Windows, a `claude.cmd` from npm brings the package's native `claude.exe` along. Pure. */
export function claudeCompanions(file: FoundFile, platform: NodeJS.Platform): CompanionLookup | null {
  if (platform !== "win32" || !/\.cmd$/i.test(file.path)) return null;
  return { paths: [npmClaudeExeBehindCmd(file.path)], label: "npm package's claude.exe" };
}

/** The WinGet package folder of `Anthropic.ClaudeCode` from the winget community source. */
const WINGET_PACKAGE = "Anthropic.ClaudeCode_Microsoft.Winget.Source_8wekyb3d8bbwe";

/**
 * The directories only Claude Code installs into: the legacy local install (`~/.claude/local`), the WinGet
 * package and machine-wide links (Windows), and, ranked below every user-installed one, the copy the Claude
 * desktop app keeps for itself. The native installer's `~/.local/bin` (`claude` there links into
 * `~/.local/share/claude/versions/`), npm's global bins, Homebrew's `bin` (where the `claude-code` cask links its
 * binary), the version managers and WinGet's per-user links are the engine's own known locations. Pure.
 */
export function claudeOwnDirs(input: CandidateDirsInput): OwnDir[] {
  const known = (dir: string, label: string): OwnDir => ({ dir, source: "known-location", label });
  const app = (dir: string, label: string): OwnDir => ({ dir, source: "desktop-app", label });
  if (input.platform === "win32") {
    const w = pathApi("win32");
    const { appData, localAppData, programFiles } = windowsFolders(input);
    return [
      known(w.join(localAppData, "Microsoft", "WinGet", "Packages", WINGET_PACKAGE), "WinGet package"),
      known(w.join(programFiles, "WinGet", "Links"), "WinGet links (machine)"),
      app(w.join(appData, "Claude", "claude-code", "*"), "Claude desktop app's Claude Code"),
    ];
  }
  const p = pathApi(input.platform);
  const dirs = [
    known(p.join(input.homedir, ".claude", "local"), "Claude Code local install (~/.claude/local)"),
  ];
  if (input.platform === "darwin") {
    dirs.push(
      app(
        p.join(
          input.homedir,
          "Library",
          "Application Support",
          "Claude",
          "claude-code",
          "*",
          "claude.app",
          "Contents",
          "MacOS",
        ),
        "Claude desktop app's Claude Code",
      ),
    );
  }
  return dirs;
}
