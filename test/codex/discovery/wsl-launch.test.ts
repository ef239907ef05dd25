import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { codexLaunchSpec, protocolCwd, type CodexLaunch } from "../../../src/codex/launch/codex-launch.js";
import { NPM_LAUNCHER_MARKER } from "../../../src/codex/launch/npm-native.js";
import { LaunchCwdError } from "../../../src/discovery/launch-cwd-error.js";
import { parseWslFileLines, wslInspectScript } from "../../../src/discovery/wsl-host.js";
import { thrownBy } from "../../helpers/thrown.js";

describe("Codex in WSL (pure argv, and the launcher check of the inspect script)", () => {
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
    const error = thrownBy(() => protocolCwd(codex, "D:\\work\\repo"));
    expect(error).toBeInstanceOf(LaunchCwdError);
    expect((error as LaunchCwdError).code).toBe("LAUNCH_CWD_UNMAPPABLE");
    expect((error as Error).message).toMatch(/is not inside the WSL distribution "Ubuntu"/);
    expect(protocolCwd({ type: "native", command: "codex" }, "D:\\work")).toBe("D:\\work");
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
        const stdout = execFileSync(
          "/bin/sh",
          ["-c", wslInspectScript(paths, { scriptMarker: NPM_LAUNCHER_MARKER })],
          {
            encoding: "utf8",
          },
        );
        expect(parseWslFileLines(stdout).map(({ info }) => [info.path, info.scriptMarked])).toEqual([
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
