import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { codexLaunchSpec, protocolCwd, type CodexLaunch } from "../../../src/codex/launch/codex-launch.js";
import { LaunchCwdError } from "../../../src/discovery/launch-cwd-error.js";
import {
  defaultWslExe,
  locusForCwd,
  parseWslUncPath,
  shGlob,
  windowsPathToWslMount,
  wslExecArgs,
} from "../../../src/discovery/wsl-locus.js";
import { parseWslFileLines, wslFindScript, wslInspectScript } from "../../../src/codex/discovery/wsl-host.js";

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
  const codex: CodexLaunch = {
    type: "wsl",
    wslExe: "C:\\Windows\\System32\\wsl.exe",
    distro: "Ubuntu",
    argv: ["/home/x/.nvm/versions/node/v22/bin/codex"],
    env: { PATH: "/home/x/.nvm/versions/node/v22/bin:/usr/bin", RUST_LOG: "warn" },
  };

  it("runs codex with --exec through /usr/bin/env (no shell re-parsing), the login PATH, the mapped cwd and extra env", () => {
    const spec = codexLaunchSpec(codex, ["app-server", "-c", 'model="a b"'], {
      cwd: "\\\\wsl.localhost\\Ubuntu\\home\\x\\repo",
      baseEnv: { SystemRoot: "C:\\Windows" },
    });
    expect(spec).toEqual({
      command: "C:\\Windows\\System32\\wsl.exe",
      args: [
        "-d",
        "Ubuntu",
        "--cd",
        "/home/x/repo",
        "--exec",
        "/usr/bin/env",
        "PATH=/home/x/.nvm/versions/node/v22/bin:/usr/bin",
        "RUST_LOG=warn",
        "/home/x/.nvm/versions/node/v22/bin/codex",
        "app-server",
        "-c",
        'model="a b"',
      ],
      env: { SystemRoot: "C:\\Windows" },
    });
  });

  it("fails before any spawn when the cwd cannot be mapped", () => {
    expect(() => codexLaunchSpec(codex, ["app-server"], { cwd: "D:\\work\\repo" })).toThrow(LaunchCwdError);
    try {
      protocolCwd(codex, "D:\\work\\repo");
    } catch (error) {
      expect((error as LaunchCwdError).code).toBe("LAUNCH_CWD_UNMAPPABLE");
      expect((error as Error).message).toMatch(/is not inside the WSL distribution "Ubuntu"/);
    }
    expect(protocolCwd({ type: "native", command: "codex" }, "D:\\work")).toBe("D:\\work");
  });

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
      "F\t0\t/h/bin\t/h/bin/codex\tfile\t1\t120:1700000000:42\t/h/lib/codex.js\t1\t#!/usr/bin/env node",
      "F\t1\t/x\t/x/codex\tbroken-link\t0\t0:0:0\t/x/codex\t0\t",
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
          ino: 42,
          executable: true,
          shebang: "#!/usr/bin/env node",
          namesCodexPath: true,
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
          ino: 0,
          executable: false,
          shebang: null,
          namesCodexPath: false,
        },
      },
    ]);
  });

  it.skipIf(process.platform === "win32")(
    "its inspect script, run by /bin/sh, reads npm's launcher only, and reports whether it names codex-path",
    () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), "rennet-wsl-inspect-"));
      try {
        const launcher = (root: string, text: string): string => {
          const file = path.join(dir, root, "@openai", "codex", "bin", "codex.js");
          mkdirSync(path.dirname(file), { recursive: true });
          writeFileSync(file, `#!/usr/bin/env node\n${text}\n`, { mode: 0o755 });
          return file;
        };
        const plain = launcher("plain", "// starts the binary");
        const adds = launcher("adds", 'const dir = "codex-path";');
        const other = path.join(dir, "other.js");
        const binary = path.join(dir, "binary");
        writeFileSync(other, '#!/usr/bin/env node\nconst dir = "codex-path";\n', { mode: 0o755 });
        writeFileSync(binary, "codex-path but no #! line", { mode: 0o755 });
        symlinkSync(adds, path.join(dir, "codex"));
        const paths = [plain, adds, other, binary, path.join(dir, "codex")];
        const stdout = execFileSync("/bin/sh", ["-c", wslInspectScript(paths)], { encoding: "utf8" });
        expect(parseWslFileLines(stdout).map(({ info }) => [info.path, info.namesCodexPath])).toEqual([
          [plain, false],
          [adds, true],
          [other, false],
          [binary, false],
          [path.join(dir, "codex"), true],
        ]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
