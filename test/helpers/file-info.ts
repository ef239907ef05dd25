import type { FileInfo } from "../../src/discovery/locus-host.js";

/** What a host reports for a regular executable file at `path` (its own real path, no `#!`), with `overrides`. */
export function fakeFileInfo(path: string, overrides: Partial<FileInfo> = {}): FileInfo {
  return {
    path,
    kind: "file",
    realpath: path,
    size: 1,
    mtimeMs: 1,
    ctimeMs: 1,
    ino: 1,
    executable: true,
    shebang: null,
    scriptMarked: false,
    ...overrides,
  };
}
