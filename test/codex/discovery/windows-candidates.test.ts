import { describe, expect, it } from "vitest";
import { candidatesFromFound } from "../../../src/discovery/candidates.js";
import {
  candidateDirs as neutralCandidateDirs,
  type CandidateDirsInput,
} from "../../../src/discovery/candidate-dirs.js";
import { codexLaunchSpec, type CodexLaunch } from "../../../src/codex/launch/codex-launch.js";
import type { FileInfo, FoundFile } from "../../../src/discovery/locus-host.js";
import { rankCandidates } from "../../../src/discovery/rank.js";
import { isWindowsStorePath } from "../../../src/discovery/windows-cmd.js";
import { codexCompanions, codexOwnDirs, npmVendorExePaths } from "../../../src/codex/launch/codex-files.js";
import { fakeFileInfo } from "../../helpers/file-info.js";
import { cmdUnescape, parseMsvcrt } from "../../helpers/windows-cmd-line.js";

/** Codex's candidate directories: the neutral ones with Codex's own. */
const candidateDirs = (input: CandidateDirsInput) => neutralCandidateDirs(input, codexOwnDirs(input));

describe("codexLaunchSpec on Windows (pure argv)", () => {
  it("codexLaunchSpec uses the cmd form for a windows-cmd command, with ComSpec from the environment", () => {
    const codex: CodexLaunch = { type: "windows-cmd", shim: "C:\\npm\\codex.cmd", env: { PATH: "C:\\npm" } };
    const spec = codexLaunchSpec(codex, ["app-server", "--listen", "stdio://"], {
      cwd: "C:\\repo",
      baseEnv: { ComSpec: "D:\\cmd.exe", Path: "C:\\Windows" },
    });
    expect(spec.command).toBe("D:\\cmd.exe");
    expect(spec.windowsVerbatimArguments).toBe(true);
    expect(spec.cwd).toBe("C:\\repo");
    expect(spec.env).toMatchObject({ PATH: "C:\\npm", ComSpec: "D:\\cmd.exe" });
    expect(parseMsvcrt(cmdUnescape(cmdUnescape(spec.args.at(-1)!.slice(1, -1))))).toEqual([
      "C:\\npm\\codex.cmd",
      "app-server",
      "--listen",
      "stdio://",
    ]);
  });
});

describe("the cmd.exe of a .cmd launch (pure)", () => {
  it("is %SystemRoot%\\System32\\cmd.exe when the environment has no ComSpec, never a bare cmd.exe", () => {
    // a bare name is looked up in the spawn's cwd first on Windows: the repository could supply cmd.exe
    const spec = codexLaunchSpec({ type: "windows-cmd", shim: "C:\\npm\\codex.cmd" }, ["app-server"], {
      cwd: "C:\\repo",
      baseEnv: { SystemRoot: "C:\\WINDOWS", Path: "C:\\npm" },
    });
    expect(spec.command).toBe("C:\\WINDOWS\\System32\\cmd.exe");
  });
});

describe("Windows candidates (pure)", () => {
  const file = (path: string): FileInfo => fakeFileInfo(path);

  it("prefers the npm package's native codex.exe, then a standalone codex.exe, then codex.cmd; never .ps1 or the Store", async () => {
    const env = {
      Path: "C:\\Users\\bob\\AppData\\Roaming\\npm;C:\\Program Files\\WindowsApps\\OpenAI.ChatGPT_1.0\\app;C:\\tools",
      APPDATA: "C:\\Users\\bob\\AppData\\Roaming",
      LOCALAPPDATA: "C:\\Users\\bob\\AppData\\Local",
      USERPROFILE: "C:\\Users\\bob",
    };
    const dirs = candidateDirs({ platform: "win32", env, homedir: "C:\\Users\\bob", loginShellPath: null });
    expect(dirs.map((d) => d.dir)).not.toContain("C:\\Program Files\\WindowsApps\\OpenAI.ChatGPT_1.0\\app");
    expect(dirs[0]).toEqual({
      dir: "C:\\Users\\bob\\AppData\\Roaming\\npm",
      source: "process-path",
      label: "PATH",
    });
    expect(dirs[1]?.dir).toBe("C:\\tools");
    const npmDir = "C:\\Users\\bob\\AppData\\Roaming\\npm";
    const found: FoundFile[] = [
      { patternIndex: 0, dir: npmDir, path: `${npmDir}\\codex.cmd`, info: file(`${npmDir}\\codex.cmd`) },
      { patternIndex: 0, dir: npmDir, path: `${npmDir}\\codex.ps1`, info: file(`${npmDir}\\codex.ps1`) },
      { patternIndex: 1, dir: "C:\\tools", path: "C:\\tools\\codex.exe", info: file("C:\\tools\\codex.exe") },
    ];
    const vendor = npmVendorExePaths(npmDir, "x64");
    expect(vendor[0]).toBe(
      `${npmDir}\\node_modules\\@openai\\codex\\node_modules\\@openai\\codex-win32-x64\\vendor\\x86_64-pc-windows-msvc\\bin\\codex.exe`,
    );
    const inspect = async (paths: readonly string[]): Promise<(FileInfo | null)[]> =>
      paths.map((p) => (p === vendor[1] ? file(p) : null));
    const candidates = await candidatesFromFound(dirs, found, {
      spec: { companions: codexCompanions },
      platform: "win32",
      arch: "x64",
      inspect,
    });
    expect(rankCandidates(candidates).map((c) => [c.path, c.kind])).toEqual([
      [vendor[1], "windows-exe"],
      ["C:\\tools\\codex.exe", "windows-exe"],
      [`${npmDir}\\codex.cmd`, "windows-cmd"],
    ]);
  });

  it("knows Store paths and arm64 vendor folders", () => {
    expect(isWindowsStorePath("C:\\Users\\bob\\AppData\\Local\\Microsoft\\WindowsApps\\codex.exe")).toBe(
      true,
    );
    expect(isWindowsStorePath("C:\\tools\\codex.exe")).toBe(false);
    expect(npmVendorExePaths("C:\\npm", "arm64")[0]).toContain(
      "codex-win32-arm64\\vendor\\aarch64-pc-windows-msvc\\bin\\codex.exe",
    );
  });
});
