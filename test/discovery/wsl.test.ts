import { describe, expect, it } from "vitest";
import {
  defaultWslExe,
  locusForCwd,
  parseWslUncPath,
  shGlob,
  windowsPathToWslMount,
  wslExecArgs,
} from "../../src/discovery/wsl-locus.js";
import { parseWslFileLines, wslFindScript } from "../../src/discovery/wsl-host.js";

describe("WSL paths (pure)", () => {
  it.each([
    ["\\\\wsl.localhost\\Ubuntu\\home\\x", "Ubuntu", "/home/x"],
    ["\\\\wsl$\\Ubuntu-22.04\\home\\x\\repo\\", "Ubuntu-22.04", "/home/x/repo"],
    ["//wsl.localhost/Debian/srv/a b", "Debian", "/srv/a b"],
    ["\\\\?\\UNC\\wsl.localhost\\Ubuntu\\home\\x", "Ubuntu", "/home/x"],
    ["\\\\WSL.LOCALHOST\\Ubuntu", "Ubuntu", "/"],
    ["\\\\wsl$\\Ubuntu\\home\\x\\..\\y", "Ubuntu", "/home/y"],
  ])("%s → %s %s", (input, distro, linuxPath) => {
    expect(parseWslUncPath(input)).toEqual({ distro, linuxPath });
  });

  it.each(["C:\\Users\\x", "\\\\server\\share\\x", "/home/x", "\\\\wsl.localhost\\"])(
    "%s is not a WSL path",
    (input) => {
      expect(parseWslUncPath(input)).toBeNull();
    },
  );

  it("decides the locus from the cwd and the platform", () => {
    expect(locusForCwd("\\\\wsl$\\Ubuntu\\home\\x", "win32")).toEqual({ type: "wsl", distro: "Ubuntu" });
    expect(locusForCwd("C:\\repo", "win32")).toEqual({ type: "native" });
    expect(locusForCwd("\\\\wsl$\\Ubuntu\\home\\x", "linux")).toEqual({ type: "native" });
  });

  it("maps Windows profile paths to the default mount, and finds wsl.exe under SystemRoot", () => {
    expect(windowsPathToWslMount("C:\\Users\\bob")).toBe("/mnt/c/Users/bob");
    expect(windowsPathToWslMount("\\\\server\\x")).toBeNull();
    expect(defaultWslExe({ SYSTEMROOT: "D:\\Win" })).toBe("D:\\Win\\System32\\wsl.exe");
    expect(defaultWslExe({})).toBe("C:\\Windows\\System32\\wsl.exe");
  });
});

describe("WSL launch argv (pure)", () => {
  it("builds the argv of a node launcher inside the distribution", () => {
    const args = wslExecArgs({
      distro: "D",
      cwd: "/w",
      env: { A: "1=2", PATH: "/x" },
      argv: ["/n/node", "/n/codex", "--version"],
    });
    expect(args).toEqual([
      "-d",
      "D",
      "--cd",
      "/w",
      "--exec",
      "/usr/bin/env",
      "A=1=2",
      "PATH=/x",
      "/n/node",
      "/n/codex",
      "--version",
    ]);
  });

  it("builds scan scripts with quoted literals and bare globs, and parses their output", () => {
    expect(shGlob("/home/o'neil/.nvm/versions/node/*/bin")).toBe(
      "/'home'/'o'\\''neil'/'.nvm'/'versions'/'node'/*/'bin'",
    );
    expect(wslFindScript(["/a b/*/bin"], ["codex"])).toContain(`for d in /'a b'/*/'bin'; do`);
    const lines = [
      "noise",
      "F\t0\t/h/bin\t/h/bin/codex\tfile\t1\t120:1700000000:42:1700000005\t/h/lib/codex.js\t1\t#!/usr/bin/env node",
      "F\t1\t/x\t/x/codex\tbroken-link\t0\t0:0:0:0\t/x/codex\t0\t",
    ].join("\n");
    expect(parseWslFileLines(lines)).toEqual([
      {
        patternIndex: 0,
        dir: "/h/bin",
        path: "/h/bin/codex",
        info: {
          path: "/h/bin/codex",
          kind: "file",
          realpath: "/h/lib/codex.js",
          size: 120,
          mtimeMs: 1_700_000_000_000,
          ctimeMs: 1_700_000_005_000,
          ino: 42,
          executable: true,
          shebang: "#!/usr/bin/env node",
          scriptMarked: true,
        },
      },
      {
        patternIndex: 1,
        dir: "/x",
        path: "/x/codex",
        info: {
          path: "/x/codex",
          kind: "broken-link",
          realpath: "/x/codex",
          size: 0,
          mtimeMs: 0,
          ctimeMs: 0,
          ino: 0,
          executable: false,
          shebang: null,
          scriptMarked: false,
        },
      },
    ]);
  });
});
