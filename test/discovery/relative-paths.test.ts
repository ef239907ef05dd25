/**
 * Only absolute directories are searched and every override resolves to an absolute path (pure functions): a
 * relative PATH entry or override would otherwise name one file when discovery checks it (relative to this
 * process) and another when the probes and the session start in the repository. A bare name given as the
 * executable is looked up in the absolute PATH directories alone.
 */
import { describe, expect, it } from "vitest";
import { findBareCommand } from "../../src/discovery/bare-command.js";
import { candidateDirSearch } from "../../src/discovery/candidate-dirs.js";
import { resolveOverridePath } from "../../src/discovery/candidates.js";
import type { FileInfo } from "../../src/discovery/locus-host.js";
import { unsearchableDirReason } from "../../src/discovery/platform-env.js";
import { fakeFileInfo } from "../helpers/file-info.js";

describe("unsearchableDirReason (pure)", () => {
  it("accepts only absolute POSIX directories", () => {
    expect(unsearchableDirReason("/usr/bin", "linux")).toBeNull();
    expect(unsearchableDirReason("/", "darwin")).toBeNull();
    for (const entry of ["bin", ".", "./bin", "..", "../x/bin", "~/bin", "~", "C:\\bin"])
      expect(unsearchableDirReason(entry, "linux"), entry).toMatch(/^not an absolute path/);
    expect(unsearchableDirReason("~/bin", "linux")).toContain("does not expand `~`");
    expect(unsearchableDirReason("", "linux")).toMatch(/^empty/);
  });

  it("on Windows accepts a drive root or a UNC path only, not drive- or root-relative ones", () => {
    for (const entry of [
      "C:\\bin",
      "c:/bin",
      "D:\\",
      "\\\\server\\share\\bin",
      "//server/share",
      "\\\\?\\C:\\bin",
    ])
      expect(unsearchableDirReason(entry, "win32"), entry).toBeNull();
    expect(unsearchableDirReason("C:foo", "win32")).toMatch(/current directory of its drive/);
    expect(unsearchableDirReason("C:", "win32")).toMatch(/current directory of its drive/);
    expect(unsearchableDirReason("\\tools\\bin", "win32")).toMatch(/no drive letter/);
    for (const entry of [".\\bin", ".", "bin", "..\\x", "~\\bin"])
      expect(unsearchableDirReason(entry, "win32"), entry).toMatch(/^not an absolute path/);
  });
});

describe("candidateDirSearch (pure)", () => {
  it("never returns a relative, empty or `~` PATH entry, and reports each once with its source", () => {
    const { dirs, skipped } = candidateDirSearch({
      platform: "linux",
      env: { PATH: "bin:/usr/bin::.:~/x:/bin:bin:" },
      homedir: "/home/u",
      loginShellPath: "/login/bin:rel/login",
    });
    expect(dirs.every((d) => d.dir.startsWith("/"))).toBe(true);
    expect(dirs.slice(0, 4).map((d) => [d.dir, d.source])).toEqual([
      ["/login/bin", "login-shell-path"],
      ["/usr/bin", "process-path"],
      ["/bin", "process-path"],
      ["/home/u/.local/bin", "known-location"],
    ]);
    expect(skipped.map((s) => [s.dir, s.source, s.label])).toEqual([
      ["rel/login", "login-shell-path", "login-shell PATH"],
      ["bin", "process-path", "PATH"],
      ["", "process-path", "PATH"],
      [".", "process-path", "PATH"],
      ["~/x", "process-path", "PATH"],
    ]);
  });

  it("skips known locations built from a relative variable (HOME, PNPM_HOME, NVM_DIR)", () => {
    const { dirs, skipped } = candidateDirSearch({
      platform: "linux",
      env: { PATH: "/usr/bin", PNPM_HOME: "pnpm", NVM_DIR: "./nvm" },
      homedir: "/home/u",
      loginShellPath: null,
    });
    expect(dirs.every((d) => d.dir.startsWith("/"))).toBe(true);
    expect(skipped.map((s) => [s.dir, s.label])).toEqual([
      ["nvm/versions/node/*/bin", "nvm node versions"],
      ["pnpm", "pnpm home"],
    ]);
    const relativeHome = candidateDirSearch({
      platform: "linux",
      env: {},
      homedir: "h",
      loginShellPath: null,
    });
    expect(relativeHome.dirs.every((d) => d.dir.startsWith("/"))).toBe(true);
    expect(relativeHome.skipped.map((s) => s.dir)).toContain("h/.local/bin");
  });

  it("on Windows skips drive-relative and root-relative entries, and empty ones silently", () => {
    const { dirs, skipped } = candidateDirSearch({
      platform: "win32",
      env: { Path: 'C:\\Tools;C:foo;.\\bin;;\\rooted;"D:\\Quoted";bin', USERPROFILE: "C:\\Users\\bob" },
      homedir: "C:\\Users\\bob",
      loginShellPath: null,
    });
    expect(dirs.slice(0, 2).map((d) => d.dir)).toEqual(["C:\\Tools", "D:\\Quoted"]);
    expect(dirs.every((d) => unsearchableDirReason(d.dir, "win32") === null)).toBe(true);
    expect(skipped.map((s) => s.dir)).toEqual(["C:foo", ".\\bin", "\\rooted", "bin"]);
  });
});

describe("resolveOverridePath (pure)", () => {
  const native = { type: "native" } as const;

  it.each([
    ["bin/codex", "linux", "/home/me/shell-dir", "/home/me/shell-dir/bin/codex"],
    ["codex", "linux", "/a", "/a/codex"],
    ["/opt/codex", "linux", "/a", "/opt/codex"],
    ["C:\\x\\codex.exe", "win32", "C:\\me", "C:\\x\\codex.exe"],
    [".\\bin\\codex.exe", "win32", "C:\\me", "C:\\me\\bin\\codex.exe"],
    ["\\bin\\codex.exe", "win32", "D:\\me", "D:\\bin\\codex.exe"],
  ] as const)(
    "%s on %s from %s is %s: a relative value against the given directory, an absolute one kept",
    (value, platform, from, path) => {
      expect(resolveOverridePath(value, platform, native, from)).toEqual({ type: "ok", path });
    },
  );

  it("in WSL resolves against a current directory in the same distribution, else refuses", () => {
    const wsl = { type: "wsl", distro: "Ubuntu" } as const;
    expect(resolveOverridePath("/usr/bin/codex", "win32", wsl, "C:\\me")).toEqual({
      type: "ok",
      path: "/usr/bin/codex",
    });
    expect(resolveOverridePath("bin/codex", "win32", wsl, "\\\\wsl.localhost\\Ubuntu\\home\\me")).toEqual({
      type: "ok",
      path: "/home/me/bin/codex",
    });
    const refused = resolveOverridePath("bin/codex", "win32", wsl, "C:\\me");
    expect(refused).toMatchObject({ type: "unresolvable" });
    expect(refused.type === "unresolvable" && refused.reason).toMatch(
      /^is a relative path, and the current directory \(C:\\me\) is not in WSL distribution "Ubuntu"/,
    );
  });
});

describe("findBareCommand", () => {
  const fileAt = (path: string): FileInfo => fakeFileInfo(path, { executable: true });

  it("returns the first executable of the name in an absolute PATH directory, skipping relative ones", async () => {
    const seen: string[] = [];
    const inspect = async (file: string): Promise<FileInfo | null> => {
      seen.push(file);
      return file === "/opt/b/codex" || file === "bin/codex" || file === "codex" ? fileAt(file) : null;
    };
    const env = { PATH: `.:bin::/opt/a:~/x:/opt/b` };
    expect(await findBareCommand("codex", env, "linux", inspect)).toBe("/opt/b/codex");
    expect(seen).toEqual(["/opt/a/codex", "/opt/b/codex"]);
    expect(await findBareCommand("codex", { PATH: ".:bin" }, "linux", inspect)).toBeNull();
    expect(await findBareCommand("codex", {}, "linux", inspect)).toBeNull();
  });

  it("skips a directory, a file without the execute bit and a missing file", async () => {
    const infos = new Map<string, FileInfo>([
      ["/a/codex", fakeFileInfo("/a/codex", { kind: "directory", executable: false })],
      ["/b/codex", fakeFileInfo("/b/codex", { executable: false })],
      ["/d/codex", fileAt("/d/codex")],
    ]);
    const inspect = async (file: string) => infos.get(file) ?? null;
    expect(await findBareCommand("codex", { PATH: "/a:/b:/c:/d" }, "linux", inspect)).toBe("/d/codex");
  });

  it("on Windows tries the executable extensions in each absolute directory of Path", async () => {
    const seen: string[] = [];
    const inspect = async (file: string): Promise<FileInfo | null> => {
      seen.push(file);
      return file === "C:\\npm\\codex.cmd" ? fileAt(file) : null;
    };
    const env = { Path: ".;C:bin;C:\\npm" };
    expect(await findBareCommand("codex", env, "win32", inspect)).toBe("C:\\npm\\codex.cmd");
    expect(seen).toEqual(["C:\\npm\\codex.exe", "C:\\npm\\codex.cmd"]);
    expect(await findBareCommand("codex.exe", env, "win32", inspect)).toBeNull();
  });
});
