import { constants, promises as fs } from "node:fs";
import { readBoundedFile } from "../read-bounded-file.js";
import type { ExecutableLaunch } from "./executable-launch.js";
import type { FileInfo, FoundFile, LocusCommand, LocusHost, ScriptMarker } from "./locus-host.js";
import { pathApi, unsearchableDirReason } from "./platform-env.js";
import { SCRIPT_HEAD_BYTES, statedVersion } from "./version-header.js";

export interface NativeHostOptions {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  homedir: string;
  shell: string | null;
  /** Working directory for probes; ignored when it is not a directory. */
  cwd: string | undefined;
  /** The one kind of script whose text is read (see {@link ScriptMarker}); none when absent. */
  scriptMarker?: ScriptMarker;
  /** The prefix of a script's version header line (see {@link FileInfo.statedVersion}); none when absent. */
  versionHeader?: string;
}

/** The {@link LocusHost} for this machine. */
export async function createNativeHost(options: NativeHostOptions): Promise<LocusHost> {
  const { platform, scriptMarker, versionHeader } = options;
  const npmPrefix = await readNpmPrefix(pathApi(platform).join(options.homedir, ".npmrc"));
  const probeCwd = options.cwd && (await isDirectory(options.cwd)) ? options.cwd : undefined;
  return {
    locus: { type: "native" },
    platform,
    homedir: options.homedir,
    env: options.env,
    spawnEnv: options.env,
    shell: options.shell,
    npmPrefix,
    windowsProfileMount: null,
    probeCwd,
    find: (patterns, names) => findNative(platform, patterns, names, scriptMarker, versionHeader),
    inspect: (paths) =>
      Promise.all(paths.map((file) => inspectNative(platform, file, scriptMarker, versionHeader))),
    command: (argv, env): LocusCommand => ({
      command: argv[0] ?? "",
      prefixArgs: argv.slice(1),
      ...(env && Object.keys(env).length > 0 ? { env } : {}),
    }),
    launch: (argv, env): ExecutableLaunch => {
      const extra = Object.keys(env).length > 0 ? { env } : {};
      return argv.length === 2
        ? { type: "node-launcher", node: argv[0], script: argv[1], ...extra }
        : { type: "native", command: argv[0], ...extra };
    },
  };
}

async function findNative(
  platform: NodeJS.Platform,
  patterns: readonly string[],
  names: readonly string[],
  marker: ScriptMarker | undefined,
  versionHeader: string | undefined,
): Promise<FoundFile[]> {
  const p = pathApi(platform);
  const perPattern = await Promise.all(
    patterns.map(async (pattern, patternIndex) => {
      // a directory that is not absolute is never searched (see unsearchableDirReason)
      if (unsearchableDirReason(pattern, platform) !== null) return [];
      const dirs = await expandPattern(platform, pattern);
      const found: FoundFile[] = [];
      for (const dir of dirs) {
        const infos = await Promise.all(
          names.map((name) => inspectNative(platform, p.join(dir, name), marker, versionHeader)),
        );
        infos.forEach((info) => {
          if (info) found.push({ patternIndex, dir, path: info.path, info });
        });
      }
      return found;
    }),
  );
  return perPattern.flat();
}

/** Expands `*` segments; matches sorted newest version first (natural order, descending). */
export async function expandPattern(platform: NodeJS.Platform, pattern: string): Promise<string[]> {
  const p = pathApi(platform);
  const star = /[\\/]\*(?=[\\/]|$)/.exec(pattern);
  if (!star) return [pattern];
  const base = pattern.slice(0, star.index) || p.sep;
  const rest = pattern.slice(star.index + star[0].length);
  let entries: string[];
  try {
    entries = (await fs.readdir(base, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
  entries.sort((a, b) => b.localeCompare(a, "en", { numeric: true }));
  const expanded = await Promise.all(
    entries.map((name) => expandPattern(platform, `${p.join(base, name)}${rest}`)),
  );
  return expanded.flat();
}

/**
 * Stats one path without running it; null when nothing is there. Reads the first bytes of a file (its `#!` line
 * and, given `versionHeader`, the version a script states), and the text of the `marker`'s script only. Never
 * throws.
 */
export async function inspectNative(
  platform: NodeJS.Platform,
  file: string,
  marker?: ScriptMarker,
  versionHeader?: string,
): Promise<FileInfo | null> {
  let stat;
  try {
    stat = await fs.stat(file);
  } catch {
    try {
      const link = await fs.lstat(file);
      return link.isSymbolicLink() ? emptyInfo(file, "broken-link") : null;
    } catch {
      return null;
    }
  }
  const kind = stat.isFile() ? "file" : stat.isDirectory() ? "directory" : "other";
  const realpath = await fs.realpath(file).catch(() => file);
  let executable: boolean;
  if (platform === "win32") executable = kind === "file" && /\.(exe|cmd|bat|com)$/i.test(file);
  else
    executable =
      kind === "file" &&
      (await fs.access(file, constants.X_OK).then(
        () => true,
        () => false,
      ));
  const head = kind === "file" ? await readScriptHead(file) : null;
  const shebang = head === null ? null : (head.split(/\r?\n/)[0] ?? null);
  const stated = head !== null && versionHeader !== undefined ? statedVersion(head, versionHeader) : null;
  return {
    path: file,
    kind,
    realpath,
    size: stat.size,
    mtimeMs: stat.mtimeMs,
    ctimeMs: stat.ctimeMs,
    ino: stat.ino,
    executable,
    shebang,
    scriptMarked: shebang !== null && (await isMarkedScript(platform, file, realpath, marker)),
    ...(stated === null ? {} : { statedVersion: stated }),
  };
}

/** The largest marker script read (npm's launcher is a few KB); a larger file is not the marker's script. */
const MAX_MARKED_SCRIPT_BYTES = 1024 * 1024;

/**
 * Whether the file is the marker's script (by its real path) and its text holds the needle (unreadable, not a
 * regular file or over {@link MAX_MARKED_SCRIPT_BYTES}: no).
 */
async function isMarkedScript(
  platform: NodeJS.Platform,
  file: string,
  realpath: string,
  marker: ScriptMarker | undefined,
): Promise<boolean> {
  if (marker === undefined || platform === "win32" || !realpath.endsWith(marker.realpathSuffix)) return false;
  const read = await readBoundedFile(file, MAX_MARKED_SCRIPT_BYTES, { followSymlink: true });
  return read.type === "read" && read.bytes.toString("utf8").includes(marker.needle);
}

/** The first bytes of a file that starts with `#!`, else null. */
async function readScriptHead(file: string): Promise<string | null> {
  let handle;
  try {
    handle = await fs.open(file, "r");
    const buffer = Buffer.alloc(SCRIPT_HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const head = buffer.subarray(0, bytesRead).toString("latin1");
    return head.startsWith("#!") ? head : null;
  } catch {
    return null;
  } finally {
    await handle?.close();
  }
}

function emptyInfo(file: string, kind: FileInfo["kind"]): FileInfo {
  return {
    path: file,
    kind,
    realpath: file,
    size: 0,
    mtimeMs: 0,
    ctimeMs: 0,
    ino: 0,
    executable: false,
    shebang: null,
    scriptMarked: false,
  };
}

async function isDirectory(dir: string): Promise<boolean> {
  return fs.stat(dir).then(
    (stat) => stat.isDirectory(),
    () => false,
  );
}

/** The largest `.npmrc` read; a larger one (no real one comes near) is read as having no prefix. */
const MAX_NPMRC_BYTES = 1024 * 1024;

/**
 * `prefix=…` from an `.npmrc`, with `~/` and `${HOME}` left alone; null when absent, unreadable, not a regular
 * file (a FIFO is never waited on) or over {@link MAX_NPMRC_BYTES}. A symlink to a regular file is followed.
 */
export async function readNpmPrefix(npmrc: string): Promise<string | null> {
  const read = await readBoundedFile(npmrc, MAX_NPMRC_BYTES, { followSymlink: true });
  return read.type === "read" ? parseNpmrcPrefix(read.bytes.toString("utf8")) : null;
}

/** The `prefix` value of `.npmrc` text. Pure. */
export function parseNpmrcPrefix(text: string): string | null {
  for (const raw of text.split(/\r?\n/)) {
    const match = /^\s*prefix\s*=\s*(.+?)\s*$/.exec(raw);
    if (match?.[1]) return match[1].replace(/^"(.*)"$/, "$1");
  }
  return null;
}
