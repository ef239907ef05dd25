/**
 * On Windows a variable's name has no case, and an environment object given to a spawn may hold several
 * case-variants of one name (`{ ...process.env, PATH: … }` keeps the inherited `Path` too). Node's child_process
 * gives the child only the first of them in sorted key order (`normalizeSpawnArguments`: "On Windows env keys
 * are case insensitive. Filter out duplicates, keeping only the first one (in lexicographic order)", then a key
 * whose value is undefined is left out). Every lookup Rennet makes in such an environment must read that same
 * value, or discovery searches a PATH the child never sees.
 */
import { describe, expect, it } from "vitest";
import { findBareCommand } from "../../src/discovery/bare-command.js";
import { launchSpec } from "../../src/discovery/executable-launch.js";
import type { FileInfo } from "../../src/discovery/locus-host.js";
import { envGet } from "../../src/discovery/platform-env.js";
import { defaultWslExe } from "../../src/discovery/wsl-locus.js";
import { windowsSystemExecutable } from "../../src/windows-env.js";
import { fakeFileInfo } from "../helpers/file-info.js";

describe("envGet on Windows with case-variant duplicates", () => {
  it("reads the key Node's spawn keeps: the first in sorted order, whatever the insertion order", () => {
    expect(envGet({ PATH: "C:\\b", Path: "C:\\a" }, "PATH", "win32")).toBe("C:\\b");
    expect(envGet({ Path: "C:\\a", PATH: "C:\\b" }, "PATH", "win32")).toBe("C:\\b");
    expect(envGet({ Path: "C:\\a", path: "C:\\c" }, "Path", "win32")).toBe("C:\\a");
    expect(envGet({ path: "C:\\c", Path: "C:\\a" }, "path", "win32")).toBe("C:\\a");
  });

  it("is unset when the kept key is empty or undefined: the child gets an empty value or none", () => {
    expect(envGet({ PATH: "", Path: "C:\\a" }, "PATH", "win32")).toBeUndefined();
    expect(envGet({ PATH: undefined, Path: "C:\\a" }, "PATH", "win32")).toBeUndefined();
  });

  it("keeps names case-sensitive elsewhere", () => {
    expect(envGet({ PATH: "/b", Path: "/a" }, "PATH", "linux")).toBe("/b");
    expect(envGet({ Path: "/a" }, "PATH", "linux")).toBeUndefined();
  });

  it("a bare command is looked up on the PATH the child would get", async () => {
    const inspect = async (file: string): Promise<FileInfo | null> =>
      file.endsWith(".exe") ? fakeFileInfo(file, { kind: "file", executable: true }) : null;
    const env = { PATH: "C:\\mine", Path: "C:\\inherited" };
    expect(await findBareCommand("codex", env, "win32", inspect)).toBe("C:\\mine\\codex.exe");
  });

  it("SystemRoot and ComSpec are read the same way", () => {
    const env = { SYSTEMROOT: "D:\\Win", SystemRoot: "E:\\Other" };
    expect(windowsSystemExecutable("cmd.exe", env)).toBe("D:\\Win\\System32\\cmd.exe");
    expect(defaultWslExe(env)).toBe("D:\\Win\\System32\\wsl.exe");
    const spec = launchSpec({ type: "windows-cmd", shim: "C:\\npm\\codex.cmd" }, [], {
      baseEnv: { ComSpec: "E:\\cmd.exe", COMSPEC: "D:\\cmd.exe" },
    });
    expect(spec.command).toBe("D:\\cmd.exe");
  });

  it("a relative SystemRoot or ComSpec is not used: the child would find cmd.exe or wsl.exe in the repository", () => {
    for (const root of ["Windows", ".\\Windows", "C:Windows", "\\Windows"]) {
      expect(windowsSystemExecutable("cmd.exe", { SystemRoot: root })).toBe("C:\\Windows\\System32\\cmd.exe");
      expect(defaultWslExe({ SystemRoot: root })).toBe("C:\\Windows\\System32\\wsl.exe");
    }
    expect(windowsSystemExecutable("cmd.exe", { SystemRoot: "\\\\srv\\win" })).toBe(
      "\\\\srv\\win\\System32\\cmd.exe",
    );
    const shim = { type: "windows-cmd", shim: "C:\\npm\\codex.cmd" } as const;
    const relative = launchSpec(shim, [], { baseEnv: { ComSpec: "cmd.exe", SystemRoot: "D:\\Win" } });
    expect(relative.command).toBe("D:\\Win\\System32\\cmd.exe");
  });
});
