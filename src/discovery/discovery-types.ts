/** Where a candidate was found. Ranking: `env-override` first, `desktop-app` below every user-installed CLI. */
export type CandidateSource =
  /** The spec's override variable (`RENNET_<NAME>_BIN`) or a path given to probe alone. */
  | "env-override"
  /** A directory of the PATH printed by the user's login shell. */
  | "login-shell-path"
  /** A directory of the PATH this process inherited. */
  | "process-path"
  /** A well-known install location (npm global, Homebrew, asdf, nvm, fnm, mise, Volta, bun, pnpm, …). */
  | "known-location"
  /** A CLI bundled with a desktop app (e.g. inside a macOS `.app` bundle). */
  | "desktop-app";

/** Where the executable runs: on this OS, or inside one WSL distribution (reached through `wsl.exe`). */
export type Locus = { type: "native" } | { type: "wsl"; distro: string };

/**
 * How the chosen file is started:
 * - `npm-native`: the install's launcher script is skipped: the native binary it would start (the spec's
 *   preferred launch, e.g. from npm's platform package) runs directly, with the variables the launcher sets;
 * - `direct`: the file itself (a native binary, a shim, or a script whose interpreter is on the child's PATH);
 * - `node-launcher`: a `#!…node` script run by the `node` executable that sits beside it;
 * - `windows-cmd`: a `.cmd` batch shim run through `cmd.exe /d /e:on /v:off /s /c` with escaped arguments.
 */
export type LaunchMode = "npm-native" | "direct" | "node-launcher" | "windows-cmd";
