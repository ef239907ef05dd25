/** Where a candidate was found. Ranking: `env-override` first, `desktop-app` below every user-installed CLI. */
export type CandidateSource =
  /** `RENNET_CODEX_BIN`. */
  | "env-override"
  /** A directory of the PATH printed by the user's login shell. */
  | "login-shell-path"
  /** A directory of the PATH this process inherited. */
  | "process-path"
  /** A well-known install location (npm global, Homebrew, asdf, nvm, fnm, mise, Volta, bun, pnpm, …). */
  | "known-location"
  /** A CLI bundled with a desktop app (ChatGPT.app / Codex.app, the Windows app's WSL CLI). */
  | "desktop-app";

/** Where Codex runs: on this OS, or inside one WSL distribution (reached through `wsl.exe`). */
export type CodexLocus = { type: "native" } | { type: "wsl"; distro: string };

/**
 * How the chosen file is started:
 * - `npm-native`: npm's `codex.js` launcher is skipped: the native binary it would start (from the platform
 *   package beside it) runs directly, with the variables the launcher sets; a session then starts no node;
 * - `direct`: the file itself (a native binary, a shim, or a script whose interpreter is on the child's PATH);
 * - `node-launcher`: the npm `codex` script run by the `node` executable that sits beside it;
 * - `windows-cmd`: a `codex.cmd` batch shim run through `cmd.exe /d /s /c` with escaped arguments.
 */
export type LaunchMode = "npm-native" | "direct" | "node-launcher" | "windows-cmd";
