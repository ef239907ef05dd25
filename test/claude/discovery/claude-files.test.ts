/**
 * Claude Code's own parts of discovery, pure: the directories per platform, npm's `claude.cmd` → `claude.exe`
 * on Windows (no `cmd.exe`), the placeholder `bin/claude.exe` → the platform package's binary, `--version` text;
 * and an explicit path, checked without running it.
 */
import { promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  claudeOwnDirs,
  claudeCompanions,
  npmClaudeExeBehindCmd,
} from "../../../src/claude/discovery/claude-files.js";
import { CLAUDE_SPEC, parseClaudeVersionOutput } from "../../../src/claude/discovery/claude-spec.js";
import { usableExplicitClaude } from "../../../src/claude/discovery/explicit-claude.js";
import {
  npmClaudePackageRoot,
  npmStubPreferredLaunch,
  platformBinaryCandidates,
} from "../../../src/claude/discovery/npm-native-claude.js";
import { candidateDirs } from "../../../src/discovery/candidate-dirs.js";
import { launchSpec } from "../../../src/discovery/executable-launch.js";
import type { FileInfo, FoundFile } from "../../../src/discovery/locus-host.js";
import { isRennetError } from "../../../src/errors.js";
import { sandboxPerTest } from "../../helpers/discovery-sandbox.js";
import { NPM_CLAUDE_EXE, NPM_DIR, rankNpmClaudeShims } from "../../helpers/npm-claude-shims.js";
import { fakeFileInfo } from "../../helpers/file-info.js";
import { fakeRuns, writeFakeClaude, writeNpmStub } from "./fake-claude-files.js";

const WIN_ENV = {
  USERPROFILE: "C:\\Users\\bob",
  APPDATA: "C:\\Users\\bob\\AppData\\Roaming",
  LOCALAPPDATA: "C:\\Users\\bob\\AppData\\Local",
};

describe("Claude Code's directories", () => {
  it("on Windows: npm's global bin and the native installer's ~\\.local\\bin, WinGet, the desktop app's copy last", () => {
    const input = {
      platform: "win32" as const,
      env: WIN_ENV,
      homedir: "C:\\Users\\bob",
      loginShellPath: null,
    };
    const dirs = candidateDirs(input, claudeOwnDirs(input)).map((d) => [d.dir, d.source, d.label]);
    expect(dirs[0]).toEqual(["C:\\Users\\bob\\AppData\\Roaming\\npm", "known-location", "npm global"]);
    expect(dirs).toContainEqual(["C:\\Users\\bob\\.local\\bin", "known-location", "~\\.local\\bin"]);
    expect(dirs).toContainEqual([
      "C:\\Users\\bob\\AppData\\Local\\Microsoft\\WinGet\\Packages\\Anthropic.ClaudeCode_Microsoft.Winget.Source_8wekyb3d8bbwe",
      "known-location",
      "WinGet package",
    ]);
    expect(dirs).toContainEqual([
      "C:\\Program Files\\WinGet\\Links",
      "known-location",
      "WinGet links (machine)",
    ]);
    expect(dirs.at(-1)).toEqual([
      "C:\\Users\\bob\\AppData\\Roaming\\Claude\\claude-code\\*",
      "desktop-app",
      "Claude desktop app's Claude Code",
    ]);
  });

  it("on Linux: ~/.local/bin first among the known locations, then ~/.claude/local; no desktop app", () => {
    const input = { platform: "linux" as const, env: {}, homedir: "/home/bob", loginShellPath: null };
    const dirs = candidateDirs(input, claudeOwnDirs(input)).map((d) => d.dir);
    expect(dirs.slice(0, 2)).toEqual(["/home/bob/.local/bin", "/home/bob/.claude/local"]);
    expect(dirs).toContain("/usr/local/bin");
    expect(dirs).toContain("/home/bob/.nvm/versions/node/*/bin");
    expect(claudeOwnDirs(input).filter((d) => d.source === "desktop-app")).toEqual([]);
  });

  it("names the files per platform and reads only `<version> (Claude Code)`", () => {
    expect(CLAUDE_SPEC.fileNames("win32")).toEqual(["claude.exe", "claude.cmd"]);
    expect(CLAUDE_SPEC.fileNames("darwin")).toEqual(["claude"]);
    expect(parseClaudeVersionOutput("2.1.332 (Claude Code)\n")).toBe("2.1.332");
    expect(parseClaudeVersionOutput("1.0.128 (Claude Code)")).toBe("1.0.128");
    expect(parseClaudeVersionOutput("2.1.332")).toBeNull();
    expect(CLAUDE_SPEC.isSupportedVersion("2.0.64")).toBe(true);
    expect(CLAUDE_SPEC.isSupportedVersion("2.0.63")).toBe(false);
  });
});

describe("npm's Windows shim and placeholder", () => {
  const file = (p: string, size = 400_000_000): FileInfo => fakeFileInfo(p, { size });

  it("a claude.cmd brings the package's claude.exe along, ranked first and started without cmd.exe", async () => {
    const exe = NPM_CLAUDE_EXE;
    expect(npmClaudeExeBehindCmd(`${NPM_DIR}\\claude.cmd`)).toBe(exe);
    const { found, ranked } = await rankNpmClaudeShims(CLAUDE_SPEC, 400_000_000);
    expect(ranked).toEqual([
      [exe, "windows-exe", "npm global, npm package's claude.exe"],
      [`${NPM_DIR}\\claude.cmd`, "windows-cmd", "npm global"],
    ]);
    expect(launchSpec({ type: "native", command: exe }, ["--version"], { baseEnv: {} })).toMatchObject({
      command: exe,
      args: ["--version"],
    });
    expect(claudeCompanions(found[0] as FoundFile, "linux")).toBeNull();
  });

  it("a placeholder claude.exe under 4 KB starts the platform package's binary; a full one starts itself", async () => {
    const root = "C:\\npm\\node_modules\\@anthropic-ai\\claude-code";
    const stub = file(`${root}\\bin\\claude.exe`, 500);
    expect(npmClaudePackageRoot(stub.realpath, "win32")).toBe(root);
    expect(platformBinaryCandidates(root, "win32", "arm64")).toEqual([
      "C:\\npm\\node_modules\\@anthropic-ai\\claude-code-win32-arm64\\claude.exe",
      `${root}\\node_modules\\@anthropic-ai\\claude-code-win32-arm64\\claude.exe`,
    ]);
    const nested = `${root}\\node_modules\\@anthropic-ai\\claude-code-win32-x64\\claude.exe`;
    const inspect = async (paths: readonly string[]): Promise<(FileInfo | null)[]> =>
      paths.map((p) => (p === nested ? file(p) : null));
    expect(await npmStubPreferredLaunch(stub, inspect, "win32", "x64")).toEqual({
      binary: file(nested),
      env: {},
    });
    expect(await npmStubPreferredLaunch(file(stub.path), inspect, "win32", "x64")).toBeNull();
    const elsewhere = file("C:\\tools\\claude.exe", 500);
    expect(await npmStubPreferredLaunch(elsewhere, inspect, "win32", "x64")).toBeNull();
    expect(platformBinaryCandidates("/p/lib/node_modules/@anthropic-ai/claude-code", "linux", "x64")).toEqual(
      [
        "/p/lib/node_modules/@anthropic-ai/claude-code-linux-x64/claude",
        "/p/lib/node_modules/@anthropic-ai/claude-code/node_modules/@anthropic-ai/claude-code-linux-x64/claude",
        "/p/lib/node_modules/@anthropic-ai/claude-code-linux-x64-musl/claude",
        "/p/lib/node_modules/@anthropic-ai/claude-code/node_modules/@anthropic-ai/claude-code-linux-x64-musl/claude",
      ],
    );
  });
});

describe("usableExplicitClaude", () => {
  const sb = sandboxPerTest();
  const log = (): string => path.join(sb().root, "claude.log");

  it("takes an executable as given, checked without running it", async () => {
    const claude = await writeFakeClaude(path.join(await sb().dir("bin"), "claude"), log());
    expect(await usableExplicitClaude(claude, "linux")).toEqual({
      launch: { type: "native", command: claude },
      path: claude,
      version: null,
      source: "explicit",
    });
    // a bare name is the executable of that name in the absolute directories of the given PATH, never `.`
    const env = { PATH: `.:${path.dirname(claude)}` };
    expect(await usableExplicitClaude("claude", "linux", "x64", env)).toMatchObject({
      launch: { type: "native", command: claude },
      path: claude,
    });
    await expect(usableExplicitClaude("claude", "linux", "x64", { PATH: "." })).rejects.toMatchObject({
      code: "CLAUDE_UNAVAILABLE",
      message: expect.stringContaining("claude: not found in any absolute PATH directory") as unknown,
    });
  });

  it("replaces npm's placeholder with the platform package's binary", async () => {
    const pkg = path.join(await sb().dir("npm", "lib", "node_modules", "@anthropic-ai"), "claude-code");
    const stub = await writeNpmStub(path.join(pkg, "bin", "claude.exe"));
    const native = await writeFakeClaude(
      path.join(path.dirname(pkg), "claude-code-linux-x64", "claude"),
      log(),
    );
    expect(await usableExplicitClaude(stub, "linux", "x64")).toMatchObject({
      launch: { type: "native", command: native },
      path: stub,
    });
  });

  it("refuses a missing file, a directory, a file without the execute bit and a 1.0 cli.js, naming each", async () => {
    const dir = await sb().dir("things");
    const plain = path.join(dir, "plain");
    await fs.writeFile(plain, "#!/bin/sh\n", { mode: 0o644 });
    const old = await writeFakeClaude(path.join(dir, "cli.js"), log(), { kind: "node", header: "1.0.128" });
    const refusal = async (file: string): Promise<[string, string]> => {
      const error: unknown = await usableExplicitClaude(file, "linux").catch((e: unknown) => e);
      if (!isRennetError(error)) throw new Error(`no RennetError for ${file}`);
      return [error.code, error.message];
    };
    expect(await refusal(path.join(dir, "missing"))).toEqual([
      "CLAUDE_UNAVAILABLE",
      `Claude Code is unavailable: ${path.join(dir, "missing")}: not found. Pass the path of a working claude ` +
        "executable, or install Claude Code (npm i -g @anthropic-ai/claude-code, or the native installer: " +
        "curl -fsSL https://claude.ai/install.sh | bash).",
    ]);
    expect((await refusal(dir))[1]).toContain(": is a directory.");
    expect((await refusal(plain))[1]).toContain(": is not executable (no execute permission for this user).");
    const [code, message] = await refusal(old);
    expect(code).toBe("CLAUDE_UNSUPPORTED_VERSION");
    expect(message).toMatch(/^Claude Code 1\.0\.128 is older than the oldest supported 2\.0\.64 /);
    const supported = await writeFakeClaude(path.join(dir, "new.js"), log(), {
      kind: "node",
      header: "2.1.112",
    });
    expect((await usableExplicitClaude(supported, "linux")).version).toBe("2.1.112");
    expect(fakeRuns(log())).toEqual([]);
  });
});
