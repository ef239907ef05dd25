import { describe, expect, it, vi } from "vitest";
import type { FileInfo } from "../../src/discovery/locus-host.js";
import type * as NativeHost from "../../src/discovery/native-host.js";
import { npmVendorExePaths } from "../../src/codex/launch/codex-files.js";
import { fakeFileInfo } from "../helpers/file-info.js";

/** A Windows file system: the paths that are regular files (any case), nothing else. */
const files = new Set<string>();

vi.mock("../../src/discovery/native-host.js", async (importOriginal) => {
  const original = await importOriginal<typeof NativeHost>();
  return {
    ...original,
    inspectNative: (platform: NodeJS.Platform, file: string): Promise<FileInfo | null> =>
      Promise.resolve(platform === "win32" && files.has(file.toLowerCase()) ? fakeFileInfo(file) : null),
  };
});

const { usableExplicitCodex } = await import("../../src/codex/launch/explicit-codex.js");
const { usableExplicitClaude } = await import("../../src/claude/discovery/explicit-claude.js");

const NPM = "C:\\Users\\bob\\AppData\\Roaming\\npm";
// the current layout of npm's package for this machine's architecture
const CODEX_EXE = npmVendorExePaths(NPM, process.arch)[0]!;
const CLAUDE_EXE = `${NPM}\\node_modules\\@anthropic-ai\\claude-code\\bin\\claude.exe`;

function windowsFiles(...paths: string[]): void {
  files.clear();
  for (const file of paths) files.add(file.toLowerCase());
}

describe("an explicit npm .cmd shim on Windows (injected platform and file system)", () => {
  it("codex.cmd starts the package's native codex.exe (no cmd.exe), as discovery would; the path stays as given", async () => {
    windowsFiles(`${NPM}\\codex.cmd`, CODEX_EXE);
    expect(await usableExplicitCodex(`${NPM}\\codex.cmd`, "win32", {})).toEqual({
      launch: { type: "native", command: CODEX_EXE },
      path: `${NPM}\\codex.cmd`,
      version: null,
      source: "explicit",
    });
  });

  it("codex.cmd without the native codex.exe beside it still runs through cmd.exe", async () => {
    windowsFiles(`${NPM}\\codex.cmd`);
    expect((await usableExplicitCodex(`${NPM}\\codex.cmd`, "win32", {})).launch).toEqual({
      type: "windows-cmd",
      shim: `${NPM}\\codex.cmd`,
    });
  });

  it("a bare `codex` found as codex.cmd on PATH starts the native codex.exe too", async () => {
    windowsFiles(`${NPM}\\codex.cmd`, CODEX_EXE);
    expect((await usableExplicitCodex("codex", "win32", { Path: NPM })).launch).toEqual({
      type: "native",
      command: CODEX_EXE,
    });
  });

  it("claude.cmd starts the package's claude.exe, and stays a cmd.exe launch without it", async () => {
    windowsFiles(`${NPM}\\claude.cmd`, CLAUDE_EXE);
    expect((await usableExplicitClaude(`${NPM}\\claude.cmd`, "win32", "x64", {})).launch).toEqual({
      type: "native",
      command: CLAUDE_EXE,
    });
    windowsFiles(`${NPM}\\claude.cmd`);
    expect((await usableExplicitClaude(`${NPM}\\claude.cmd`, "win32", "x64", {})).launch).toEqual({
      type: "windows-cmd",
      shim: `${NPM}\\claude.cmd`,
    });
  });
});
