/**
 * A script that states its version in a header line is refused by that statement when the version is not
 * supported, before its version arguments run (some releases write files when merely asked for their version);
 * natively and inside WSL (the same `/bin/sh` script the WSL host runs, here on this machine).
 */
import { execFileSync } from "node:child_process";
import { existsSync, promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { discoverExecutable } from "../../src/discovery/discover-executable.js";
import type { ExecutableSpec } from "../../src/discovery/executable-spec.js";
import { inspectNative } from "../../src/discovery/native-host.js";
import { releaseOrNull, statedVersion } from "../../src/discovery/version-header.js";
import { parseWslFileLines, wslFindScript, wslInspectScript } from "../../src/discovery/wsl-host.js";
import { sandboxPerTest } from "../helpers/discovery-sandbox.js";

const HEADER = "// Version: ";

const TOOL: ExecutableSpec<"TOOL_TOO_OLD"> = {
  name: "tool",
  naming: { name: "Tool", explicitFlag: "--tool-bin" },
  overrideVariable: "RENNET_TOOL_BIN",
  fileNames: () => ["tool"],
  ownDirs: () => [],
  versionHeader: HEADER,
  versionArgs: ["--version"],
  parseVersion: (output) => /^(\d+\.\d+\.\d+)/m.exec(output)?.[1] ?? null,
  isSupportedVersion: (version) => Number(version.split(".")[0]) >= 2,
  unsupportedVersion: { code: "TOOL_TOO_OLD", message: (version) => `tool ${version} is too old` },
  cacheTag: "tool/1",
  guidance: { install: "get it", upgrade: "update it", doctorCommand: "tool doctor", launchArgs: [] },
};

const sb = sandboxPerTest();

/** A `#!/bin/sh` tool stating `stated` in its header; `--version` prints `prints` and leaves a file behind. */
async function writeTool(dir: string, stated: string, prints = stated): Promise<string> {
  const file = path.join(dir, "tool");
  const text = [
    "#!/bin/sh",
    "# (c) a vendor whose header lines come first",
    "",
    `${HEADER}${stated}`,
    "",
    `: > '${path.join(dir, "version-ran")}'`,
    `echo "${prints}"`,
    "",
  ].join("\n");
  await fs.writeFile(file, text, { mode: 0o755 });
  return file;
}

describe("statedVersion", () => {
  it("reads the release on the first line that starts with the prefix", () => {
    expect(statedVersion(`#!/usr/bin/env node\n\n${HEADER}1.0.128\n`, HEADER)).toBe("1.0.128");
    expect(statedVersion(`#!x\r\n${HEADER}2.1.112\r\nrest`, HEADER)).toBe("2.1.112");
    expect(statedVersion(`#!x\n  ${HEADER}1.0.0\n`, HEADER)).toBeNull(); // not at the line's start
    expect(statedVersion(`#!x\n${HEADER}soon\n`, HEADER)).toBeNull();
    expect(statedVersion("#!x\nno header", HEADER)).toBeNull();
    expect(releaseOrNull(" 2.0.0-beta.1 ")).toBe("2.0.0-beta.1");
    expect(releaseOrNull("2.0")).toBeNull();
  });
});

describe("a stated version", () => {
  it("is read from a #! script's first bytes, natively and by the WSL host's script", async () => {
    const dir = await sb().dir("tools");
    const old = await writeTool(dir, "1.0.128");
    const binary = path.join(dir, "binary");
    await fs.writeFile(binary, `${HEADER}1.0.0 but no #! line`, { mode: 0o755 });
    expect((await inspectNative("linux", old, undefined, HEADER))?.statedVersion).toBe("1.0.128");
    expect((await inspectNative("linux", old))?.statedVersion).toBeUndefined();
    expect((await inspectNative("linux", binary, undefined, HEADER))?.statedVersion).toBeUndefined();
    const inspect = (script: string): [string, string | undefined][] =>
      parseWslFileLines(execFileSync("/bin/sh", ["-c", script], { encoding: "utf8" })).map(({ info }) => [
        info.path,
        info.statedVersion,
      ]);
    expect(inspect(wslInspectScript([old, binary], { versionHeader: HEADER }))).toEqual([
      [old, "1.0.128"],
      [binary, undefined],
    ]);
    expect(inspect(wslInspectScript([old]))).toEqual([[old, undefined]]);
    expect(inspect(wslFindScript([dir], ["tool", "binary"], { versionHeader: HEADER }))).toEqual([
      [old, "1.0.128"],
      [binary, undefined],
    ]);
    expect(existsSync(path.join(dir, "version-ran"))).toBe(false);
  });

  it("that is unsupported refuses the candidate without running it; a supported one still runs", async () => {
    const oldDir = await sb().dir("old");
    const old = await writeTool(oldDir, "1.0.128");
    const env = sb().env({ PATH: oldDir });
    const refused = await discoverExecutable(TOOL, sb().options(env));
    expect(refused.code).toBe("TOOL_TOO_OLD");
    expect(refused.reason).toBe(`tool 1.0.128 is too old (${old})`);
    expect(refused.candidates[0]).toMatchObject({
      version: "1.0.128",
      code: "TOOL_TOO_OLD",
      outcome: "failed",
    });
    expect(refused.candidates[0]?.probes).toEqual([
      { probe: "executable", result: "pass", ms: 0 },
      {
        probe: "version",
        result: "fail",
        ms: 0,
        reason: "tool 1.0.128 is too old (stated in the file; not run)",
      },
    ]);
    expect(existsSync(path.join(oldDir, "version-ran"))).toBe(false);

    // the statement only refuses: a supported one is still asked, and what it prints wins
    const newDir = await sb().dir("new");
    await writeTool(newDir, "2.0.0", "2.5.0");
    const chosen = await discoverExecutable(TOOL, sb().options(sb().env({ PATH: newDir })));
    expect(chosen.chosen?.version).toBe("2.5.0");
    expect(existsSync(path.join(newDir, "version-ran"))).toBe(true);
  });
});
