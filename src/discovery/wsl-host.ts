import type { ExecutableLaunch } from "./executable-launch.js";
import type { FileInfo, FoundFile, LocusHost, ScriptMarker } from "./locus-host.js";
import { runCommand } from "../process/run-command.js";
import { windowsEnvValue } from "../windows-env.js";
import { describeRunFailure } from "../process/run-failure.js";
import { releaseOrNull, SCRIPT_HEAD_BYTES } from "./version-header.js";
import { shGlob, shQuote, windowsPathToWslMount, wslExecArgs } from "./wsl-locus.js";

export interface WslHostOptions {
  /** Path of `wsl.exe` on the Windows side. */
  wslExe: string;
  distro: string;
  /** The Windows environment (for `wsl.exe` itself and the user profile). */
  windowsEnv: NodeJS.ProcessEnv;
  timeoutMs: number;
  signal?: AbortSignal;
  /** The one kind of script whose text is read (see {@link ScriptMarker}); none when absent. */
  scriptMarker?: ScriptMarker;
  /** The prefix of a script's version header line (see {@link FileInfo.statedVersion}); none when absent. */
  versionHeader?: string;
}

/** What the file-reporting scripts read besides a file's metadata. */
export interface WslFileReading {
  scriptMarker?: ScriptMarker;
  versionHeader?: string;
}

export type WslHostResult =
  { type: "ok"; host: LocusHost } | { type: "failed"; reason: string; aborted?: boolean };

/** Prints the distribution's HOME, login shell, non-login PATH and npm prefix, one tagged line each. */
export function wslSurveyScript(): string {
  return [
    `printf 'H\\t%s\\n' "$HOME"`,
    `s="\${SHELL:-}"`,
    `if [ -z "$s" ] && command -v getent >/dev/null 2>&1; then s=$(getent passwd "$(id -un)" | cut -d: -f7); fi`,
    `printf 'S\\t%s\\n' "$s"`,
    `printf 'P\\t%s\\n' "$PATH"`,
    `if [ -r "$HOME/.npmrc" ]; then n=$(sed -n 's/^[[:space:]]*prefix[[:space:]]*=[[:space:]]*//p' "$HOME/.npmrc" | head -n 1); printf 'N\\t%s\\n' "$n"; fi`,
  ].join("\n");
}

/** Prints the rest of the first input line that starts with `$P`. */
const HEADER_AWK = `awk 'index($0, ENVIRON["P"]) == 1 { print substr($0, length(ENVIRON["P"]) + 1); exit }'`;

/**
 * The shell function `emit <index> <dir> <path>`: one `F` line for a path that exists (kind, execute bit,
 * size:mtime:inode:ctime, real path, marker flag, first line of a `#!` file), then, given a version-header prefix, a
 * `V` line with the rest of a `#!` file's header line (from its first bytes); only the marker's script is read
 * whole.
 */
function emitFunction(reading: WslFileReading): string {
  const marker = reading.scriptMarker;
  const header = reading.versionHeader;
  const headerLine =
    header === undefined
      ? []
      : [
          `    if [ -n "$sb" ]; then hv=$(head -c ${SCRIPT_HEAD_BYTES} "$3" 2>/dev/null | P=${shQuote(header)} ${HEADER_AWK}); ` +
            `if [ -n "$hv" ]; then printf 'V\\t%s\\t%s\\t%s\\n' "$1" "$3" "$hv"; fi; fi`,
        ];
  const markedCheck =
    marker === undefined
      ? "    cp=0"
      : `    cp=0; case "$sb:$rp" in "#!"*${shQuote(marker.realpathSuffix)}) if grep -q -F -e ${shQuote(marker.needle)} "$3" 2>/dev/null; then cp=1; fi ;; esac`;
  return [
    "emit() {",
    '  if [ -e "$3" ]; then',
    '    if [ -f "$3" ]; then k=file; elif [ -d "$3" ]; then k=directory; else k=other; fi',
    `    st=$(stat -L -c '%s:%Y:%i:%Z' "$3" 2>/dev/null || echo 0:0:0:0)`,
    `    rp=$(readlink -f "$3" 2>/dev/null || printf '%s' "$3")`,
    '    x=0; if [ "$k" = file ] && [ -x "$3" ]; then x=1; fi',
    `    sb=; if [ "$k" = file ] && [ "$(head -c 2 "$3" 2>/dev/null)" = '#!' ]; then sb=$(head -n 1 "$3" 2>/dev/null | head -c 200); fi`,
    markedCheck,
    `    printf 'F\\t%s\\t%s\\t%s\\t%s\\t%s\\t%s\\t%s\\t%s\\t%s\\n' "$1" "$2" "$3" "$k" "$x" "$st" "$rp" "$cp" "$sb"`,
    ...headerLine,
    '  elif [ -L "$3" ]; then',
    `    printf 'F\\t%s\\t%s\\t%s\\tbroken-link\\t0\\t0:0:0:0\\t%s\\t0\\t\\n' "$1" "$2" "$3" "$3"`,
    "  fi",
    "}",
  ].join("\n");
}

/** A script that expands each pattern and reports the named files in it (`F` lines). Pure. */
export function wslFindScript(
  patterns: readonly string[],
  names: readonly string[],
  reading: WslFileReading = {},
): string {
  const loops = patterns.map(
    (pattern, index) =>
      `for d in ${shGlob(pattern)}; do [ -d "$d" ] || continue; for n in ${names.map(shQuote).join(" ")}; do emit ${index} "$d" "$d/$n"; done; done`,
  );
  return [emitFunction(reading), ...loops].join("\n");
}

/** A script that reports each path (`F` lines, index = position). Pure. */
export function wslInspectScript(paths: readonly string[], reading: WslFileReading = {}): string {
  return [emitFunction(reading), ...paths.map((file, index) => `emit ${index} '' ${shQuote(file)}`)].join(
    "\n",
  );
}

/** Parses the `F` (and `V`) lines of {@link wslFindScript}/{@link wslInspectScript}. Pure. */
export function parseWslFileLines(stdout: string): FoundFile[] {
  const found: FoundFile[] = [];
  for (const line of stdout.split("\n")) {
    const fields = line.split("\t");
    if (fields[0] === "V") {
      attachStatedVersion(found.at(-1), fields);
      continue;
    }
    if (fields[0] !== "F" || fields.length < 10) continue;
    const [, index, dir, file, kind, x, st, realpath, marked, ...shebangParts] = fields;
    const [size, mtime, ino, ctime] = (st ?? "0:0:0:0").split(":").map((n) => Number(n) || 0);
    const shebang = shebangParts.join("\t").replace(/\r$/, "");
    const info: FileInfo = {
      path: file ?? "",
      kind: kind === "file" || kind === "directory" || kind === "broken-link" ? kind : "other",
      realpath: realpath || (file ?? ""),
      size: size ?? 0,
      mtimeMs: (mtime ?? 0) * 1000,
      ctimeMs: (ctime ?? 0) * 1000,
      ino: ino ?? 0,
      executable: x === "1",
      shebang: shebang.startsWith("#!") ? shebang : null,
      scriptMarked: marked === "1",
    };
    found.push({ patternIndex: Number(index), dir: dir ?? "", path: info.path, info });
  }
  return found;
}

/** A `V` line (index, path, header text) belongs to the `F` line just before it, for the same path. */
function attachStatedVersion(last: FoundFile | undefined, fields: readonly string[]): void {
  const [, , file, ...rest] = fields;
  if (last === undefined || file !== last.path) return;
  const version = releaseOrNull(rest.join("\t").replace(/\r$/, ""));
  if (version !== null) last.info.statedVersion = version;
}

/**
 * Reaches a WSL distribution through `wsl.exe` and returns a {@link LocusHost} for it. Its files are read by
 * small `/bin/sh` scripts run with `--exec`, its processes are started as `wsl.exe -d <distro> --exec
 * /usr/bin/env PATH=… <argv>`.
 */
export async function createWslHost(options: WslHostOptions): Promise<WslHostResult> {
  const { wslExe, distro } = options;
  const reading: WslFileReading = {
    ...(options.scriptMarker ? { scriptMarker: options.scriptMarker } : {}),
    ...(options.versionHeader !== undefined ? { versionHeader: options.versionHeader } : {}),
  };
  const run = (script: string): Promise<ScriptRun> => runInDistro(options, script);
  const survey = await run(wslSurveyScript());
  if (!survey.ok) {
    return {
      type: "failed",
      reason: `could not reach WSL distribution "${distro}" through ${wslExe}: ${survey.reason}`,
      aborted: survey.aborted,
    };
  }
  const tags = new Map<string, string>();
  for (const line of survey.stdout.split("\n")) {
    const tab = line.indexOf("\t");
    if (tab === 1) tags.set(line.slice(0, 1), line.slice(2).replace(/\r$/, ""));
  }
  const home = tags.get("H") || "/root";
  const env: NodeJS.ProcessEnv = { HOME: home, PATH: tags.get("P") ?? "/usr/local/bin:/usr/bin:/bin" };
  const shell = tags.get("S") || null;
  if (shell) env.SHELL = shell;
  const profile = windowsEnvValue(options.windowsEnv, "USERPROFILE");
  const host: LocusHost = {
    locus: { type: "wsl", distro },
    platform: "linux",
    homedir: home,
    env,
    spawnEnv: options.windowsEnv,
    shell,
    npmPrefix: tags.get("N") || null,
    windowsProfileMount: profile ? windowsPathToWslMount(profile) : null,
    probeCwd: undefined,
    async find(patterns, names) {
      const result = await run(wslFindScript(patterns, names, reading));
      if (!result.ok) return [];
      const found = parseWslFileLines(result.stdout);
      // the shell sorts glob matches ascending; discovery wants the newest version first
      return found.sort(
        (a, b) => a.patternIndex - b.patternIndex || b.dir.localeCompare(a.dir, "en", { numeric: true }),
      );
    },
    async inspect(paths) {
      const result = await run(wslInspectScript(paths, reading));
      const byIndex = new Map<number, FileInfo>();
      if (result.ok)
        for (const file of parseWslFileLines(result.stdout)) byIndex.set(file.patternIndex, file.info);
      return paths.map((_, index) => byIndex.get(index) ?? null);
    },
    command: (argv, extraEnv) => ({
      command: wslExe,
      prefixArgs: wslExecArgs({ distro, env: extraEnv, argv }),
    }),
    launch: (argv, env): ExecutableLaunch => ({
      type: "wsl",
      wslExe,
      distro,
      argv: [...argv],
      ...(Object.keys(env).length > 0 ? { env } : {}),
    }),
  };
  return { type: "ok", host };
}

type ScriptRun = { ok: true; stdout: string } | { ok: false; reason: string; aborted: boolean };

/** Runs a `/bin/sh` script inside the distribution (`wsl.exe --exec`, no shell on either side). */
async function runInDistro(options: WslHostOptions, script: string): Promise<ScriptRun> {
  const result = await runCommand(
    {
      command: options.wslExe,
      args: wslExecArgs({ distro: options.distro, argv: ["/bin/sh", "-c", script] }),
      env: options.windowsEnv,
    },
    { timeoutMs: options.timeoutMs, signal: options.signal },
  );
  if (result.type === "exited" && result.code === 0) return { ok: true, stdout: result.stdout };
  return {
    ok: false,
    reason: describeRunFailure(result, options.timeoutMs),
    aborted: result.type === "aborted",
  };
}
