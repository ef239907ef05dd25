import { describe, expect, it } from "vitest";
import { overrideCandidate } from "../../src/discovery/candidates.js";
import type { FileInfo, LocusHost } from "../../src/discovery/locus-host.js";
import { claudeCompanions } from "../../src/claude/discovery/claude-files.js";
import { codexCompanions, npmVendorExePaths } from "../../src/codex/launch/codex-files.js";
import { fakeFileInfo } from "../helpers/file-info.js";

const NPM = "C:\\Users\\bob\\AppData\\Roaming\\npm";
const CODEX_EXE = npmVendorExePaths(NPM, "x64")[1]!;
const CLAUDE_EXE = `${NPM}\\node_modules\\@anthropic-ai\\claude-code\\bin\\claude.exe`;

/** A Windows host whose file system holds exactly `files` (regular files). */
function windowsHost(...files: string[]): LocusHost {
  const held = new Set(files);
  return {
    locus: { type: "native" },
    platform: "win32",
    homedir: "C:\\Users\\bob",
    env: { Path: NPM },
    spawnEnv: { Path: NPM },
    shell: null,
    npmPrefix: null,
    windowsProfileMount: null,
    probeCwd: undefined,
    find: () => Promise.resolve([]),
    inspect: (paths) =>
      Promise.resolve(paths.map((p): FileInfo | null => (held.has(p) ? fakeFileInfo(p) : null))),
    command: (argv) => ({ command: argv[0] ?? "", prefixArgs: argv.slice(1) }),
    launch: (argv) => ({ type: "native", command: argv[0] }),
  };
}

describe("an override naming npm's .cmd shim on Windows (injected host)", () => {
  it("becomes the package's native .exe when it is there, as the shim in a searched directory would", async () => {
    const host = windowsHost(`${NPM}\\codex.cmd`, CODEX_EXE);
    const codex = { spec: { companions: codexCompanions }, arch: "x64" };
    expect(await overrideCandidate(host, `${NPM}\\codex.cmd`, "RENNET_CODEX_BIN", codex)).toMatchObject({
      path: CODEX_EXE,
      label: "RENNET_CODEX_BIN, npm package's codex.exe",
      kind: "windows-exe",
      source: "env-override",
    });
    // a bare name found as the shim on PATH too
    expect(await overrideCandidate(host, "codex", "--codex-bin", codex)).toMatchObject({
      path: CODEX_EXE,
      kind: "windows-exe",
    });
    const claudeHost = windowsHost(`${NPM}\\claude.cmd`, CLAUDE_EXE);
    const claude = { spec: { companions: claudeCompanions }, arch: "x64" };
    expect(
      await overrideCandidate(claudeHost, `${NPM}\\claude.cmd`, "RENNET_CLAUDE_BIN", claude),
    ).toMatchObject({ path: CLAUDE_EXE, kind: "windows-exe" });
  });

  it("stays the shim (a cmd.exe launch) without the .exe", async () => {
    const host = windowsHost(`${NPM}\\codex.cmd`);
    expect(
      await overrideCandidate(host, `${NPM}\\codex.cmd`, "RENNET_CODEX_BIN", {
        spec: { companions: codexCompanions },
        arch: "x64",
      }),
    ).toMatchObject({ path: `${NPM}\\codex.cmd`, label: "RENNET_CODEX_BIN", kind: "windows-cmd" });
  });
});
