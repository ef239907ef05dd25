import { describe, expect, it } from "vitest";
import { candidatesFromFound } from "../../../src/codex/discovery/candidates.js";
import { candidateDirs } from "../../../src/codex/discovery/candidate-dirs.js";
import { codexLaunchSpec, type CodexLaunch } from "../../../src/codex/launch/codex-launch.js";
import type { FileInfo, FoundFile } from "../../../src/discovery/locus-host.js";
import { rankCandidates } from "../../../src/discovery/rank.js";
import {
  escapeCmdShimArgument,
  isWindowsStorePath,
  quoteMsvcrtArgument,
  windowsCmdLaunch,
} from "../../../src/discovery/windows-cmd.js";
import { npmVendorExePaths } from "../../../src/codex/launch/codex-files.js";

/** What cmd.exe does to `^` escapes in one parsing pass (the test only feeds it fully escaped text). */
function cmdUnescape(text: string): string {
  return text.replace(/\^(.)/g, "$1");
}

/** The MSVCRT command-line parser (what node.exe uses for its argv). */
function parseMsvcrt(line: string): string[] {
  const args: string[] = [];
  let current = "";
  let inQuotes = false;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === "\\") {
      let n = 0;
      while (line[i] === "\\") {
        n++;
        i++;
      }
      if (line[i] === '"') {
        current += "\\".repeat(Math.floor(n / 2));
        if (n % 2 === 1) current += '"';
        else inQuotes = !inQuotes;
      } else {
        current += "\\".repeat(n);
        i--;
      }
      started = true;
    } else if (ch === '"') {
      inQuotes = !inQuotes;
      started = true;
    } else if ((ch === " " || ch === "\t") && !inQuotes) {
      if (started) args.push(current);
      current = "";
      started = false;
    } else {
      current += ch;
      started = true;
    }
  }
  if (started) args.push(current);
  return args;
}

const NASTY = [
  "app-server",
  "-c",
  "mcp_servers={docs={enabled=false}}",
  'model="gpt 5"',
  "a&b|c>d",
  "100%PATH%",
  "trailing\\",
  'quote\\"d',
  "(x) ^ !y!",
  "",
];

describe("windowsCmdLaunch (pure argv)", () => {
  it("runs the shim through cmd.exe /d /s /c with one verbatim, fully escaped command line", () => {
    const launch = windowsCmdLaunch(
      "C:\\Users\\John Smith\\AppData\\Roaming\\npm\\codex.cmd",
      ["app-server"],
      "C:\\Windows\\system32\\cmd.exe",
    );
    expect(launch).toEqual({
      command: "C:\\Windows\\system32\\cmd.exe",
      args: [
        "/d",
        "/s",
        "/c",
        '"C:\\Users\\John^ Smith\\AppData\\Roaming\\npm\\codex.cmd ^^^"app-server^^^""',
      ],
      windowsVerbatimArguments: true,
    });
  });

  it("every argument survives cmd.exe's line, the shim's %* re-parse and the MSVCRT parser unchanged", () => {
    const launch = windowsCmdLaunch("C:\\npm\\codex.cmd", NASTY);
    const line = launch.args[3] ?? "";
    expect(line.startsWith('"') && line.endsWith('"')).toBe(true);
    const afterCmd = cmdUnescape(line.slice(1, -1)); // /s strips the outer quotes; pass 1
    const shimArgs = afterCmd.slice(afterCmd.indexOf(" ") + 1); // %* = what follows the shim's path
    // no metacharacter is left unescaped for the shim's own parse
    expect(shimArgs.replace(/\^./g, "")).not.toMatch(/[&|<>()%!]/);
    expect(parseMsvcrt(cmdUnescape(shimArgs))).toEqual(NASTY);
  });

  it("quotes for MSVCRT: backslashes before quotes and at the end are doubled", () => {
    expect(quoteMsvcrtArgument("plain")).toBe('"plain"');
    expect(quoteMsvcrtArgument('a"b')).toBe('"a\\"b"');
    expect(quoteMsvcrtArgument("dir\\")).toBe('"dir\\\\"');
    expect(quoteMsvcrtArgument('x\\"y')).toBe('"x\\\\\\"y"');
    expect(escapeCmdShimArgument("&")).toBe('^^^"^^^&^^^"');
  });

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
    expect(parseMsvcrt(cmdUnescape(cmdUnescape(spec.args[3]!.slice(1, -1))))).toEqual([
      "C:\\npm\\codex.cmd",
      "app-server",
      "--listen",
      "stdio://",
    ]);
  });
});

describe("Windows candidates (pure)", () => {
  const file = (path: string): FileInfo => ({
    path,
    kind: "file",
    realpath: path,
    size: 1,
    mtimeMs: 1,
    ino: 1,
    executable: true,
    shebang: null,
    namesCodexPath: false,
  });

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
    const inspect = async (paths: string[]): Promise<(FileInfo | null)[]> =>
      paths.map((p) => (p === vendor[1] ? file(p) : null));
    const candidates = await candidatesFromFound(dirs, found, "win32", inspect, "x64");
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
