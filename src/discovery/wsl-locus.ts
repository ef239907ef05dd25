import path from "node:path";
import { windowsSystemExecutable } from "../windows-env.js";
import type { Locus } from "./discovery-types.js";

/** A Windows path into a WSL distribution, split into the distribution and its native path. */
export interface WslPath {
  distro: string;
  /** Absolute POSIX path inside the distribution, normalized (`/home/x`). */
  linuxPath: string;
}

const WSL_UNC = /^(?:[\\/]{2}\?[\\/]UNC[\\/]|[\\/]{2})(wsl\.localhost|wsl\$)[\\/]([^\\/]+)([\\/].*)?$/i;

/** Parses `\\wsl.localhost\<distro>\…`, `\\wsl$\<distro>\…` (also `//…` and `\\?\UNC\…` forms). Pure. */
export function parseWslUncPath(file: string): WslPath | null {
  const match = WSL_UNC.exec(file);
  if (!match) return null;
  const distro = match[2];
  if (!distro) return null;
  const rest = (match[3] ?? "/").replace(/\\/g, "/");
  return { distro, linuxPath: path.posix.normalize(rest === "" ? "/" : rest).replace(/(.)\/$/, "$1") };
}

/** The locus of a repository: WSL when a Windows process looks at a path inside a distribution. Pure. */
export function locusForCwd(cwd: string, platform: NodeJS.Platform): Locus {
  if (platform !== "win32") return { type: "native" };
  const parsed = parseWslUncPath(cwd);
  return parsed ? { type: "wsl", distro: parsed.distro } : { type: "native" };
}

/** `%SystemRoot%\System32\wsl.exe` from a Windows environment. */
export function defaultWslExe(env: NodeJS.ProcessEnv): string {
  return windowsSystemExecutable("wsl.exe", env);
}

export interface WslExecInput {
  distro: string;
  /** Distribution-native working directory (`--cd`). */
  cwd?: string | undefined;
  /** Variables set inside the distribution through `/usr/bin/env NAME=value`. */
  env?: Record<string, string>;
  /** The program and its arguments, run without a shell. */
  argv: readonly string[];
}

/**
 * `wsl.exe` arguments that run `argv` inside a distribution: `-d <distro> [--cd <dir>] --exec /usr/bin/env
 * [NAME=value…] <argv…>`. `--exec` runs the program without the distribution's shell, so arguments are never
 * re-parsed; `env` carries the login-shell PATH (a bare `wsl.exe` command sees a non-login PATH, where an
 * nvm/asdf `node` is missing) and any variable the caller adds (Windows variables do not cross into WSL).
 */
export function wslExecArgs(input: WslExecInput): string[] {
  const assignments = Object.entries(input.env ?? {}).map(([name, value]) => `${name}=${value}`);
  return [
    "-d",
    input.distro,
    ...(input.cwd === undefined ? [] : ["--cd", input.cwd]),
    "--exec",
    "/usr/bin/env",
    ...assignments,
    ...input.argv,
  ];
}

/** Single-quotes a string for a POSIX shell. */
export function shQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/**
 * A glob pattern (literal path with `*` as whole segments) for a POSIX shell: literal parts quoted, `*`
 * left bare so the shell expands it.
 */
export function shGlob(pattern: string): string {
  return pattern
    .split("/")
    .map((segment) => (segment === "*" ? "*" : segment === "" ? "" : shQuote(segment)))
    .join("/");
}

/** `C:\Users\bob` → `/mnt/c/Users/bob` (default automount root); null for anything else. Pure. */
export function windowsPathToWslMount(file: string): string | null {
  const match = /^([A-Za-z]):[\\/]?(.*)$/.exec(file);
  if (!match || match[1] === undefined) return null;
  const rest = (match[2] ?? "").replace(/\\/g, "/").replace(/\/$/, "");
  return `/mnt/${match[1].toLowerCase()}${rest ? `/${rest}` : ""}`;
}
