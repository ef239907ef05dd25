/**
 * The discovery engine is harness-neutral: a second CLI, here a fake `claude` with a spec of its own written in
 * this file (the shapes of Claude Code's installs: npm's native `bin/claude.exe`, the <4 KB stub left when npm's
 * postinstall did not run, `cli.js` under node up to 2.1.112, the legacy `~/.claude/local`, npm's `claude.cmd` on
 * Windows), is found through the same login shell, version-manager dirs, probe cache and launch forms, with no
 * Codex module loaded.
 */
import { promises as fs, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { discoverExecutable } from "../../src/discovery/discover-executable.js";
import { launchSpec } from "../../src/discovery/executable-launch.js";
import type { ExecutableSpec } from "../../src/discovery/executable-spec.js";
import { pathApi } from "../../src/discovery/platform-env.js";
import { runCommand } from "../../src/process/run-command.js";
import { sandboxPerTest } from "../helpers/discovery-sandbox.js";
import { NPM_CLAUDE_EXE, NPM_DIR, rankNpmClaudeShims } from "../helpers/npm-claude-shims.js";

const STUB_MAX_BYTES = 4096;

/** A spec for a Claude-Code-like CLI, built only from the engine's interface. */
const CLAUDE_LIKE: ExecutableSpec<"CLAUDE_UNSUPPORTED_VERSION"> = {
  name: "claude",
  naming: { name: "Claude Code", explicitFlag: "--claude-bin" },
  overrideVariable: "RENNET_CLAUDE_BIN",
  fileNames: (platform) => (platform === "win32" ? ["claude.exe", "claude.cmd"] : ["claude"]),
  ownDirs: (input) => [
    {
      dir: pathApi(input.platform).join(input.homedir, ".claude", "local"),
      source: "known-location",
      label: "Claude Code local install",
    },
  ],
  // npm's claude.cmd calls the package's claude.exe directly: start that, no cmd.exe
  companions: (file, platform) =>
    platform === "win32" && /\.cmd$/i.test(file.path)
      ? {
          paths: [
            path.win32.join(file.dir, "node_modules", "@anthropic-ai", "claude-code", "bin", "claude.exe"),
          ],
          label: "npm package's claude.exe",
        }
      : null,
  // a bin/claude.exe under 4 KB is the stub npm leaves without its postinstall: start the platform package's binary
  preferredLaunch: async (info, inspect, platform, arch) => {
    if (info.size >= STUB_MAX_BYTES || !info.realpath.endsWith("/@anthropic-ai/claude-code/bin/claude.exe"))
      return null;
    const scope = path.posix.dirname(path.posix.dirname(path.posix.dirname(info.realpath)));
    const [binary] = await inspect([path.posix.join(scope, `claude-code-${platform}-${arch}`, "claude")]);
    return binary?.kind === "file" && binary.executable ? { binary, env: {} } : null;
  },
  versionArgs: ["--version"],
  parseVersion: (output) => /^(\d+\.\d+\.\d+) \(Claude Code\)/m.exec(output)?.[1] ?? null,
  isSupportedVersion: (version) => {
    const [major = 0, minor = 0, patch = 0] = version.split(".").map(Number);
    return major * 1e6 + minor * 1e3 + patch >= 2_000_064;
  },
  unsupportedVersion: {
    code: "CLAUDE_UNSUPPORTED_VERSION",
    message: (version) => `claude ${version} is older than the oldest supported 2.0.64`,
  },
  cacheTag: "claude-probe/1",
  guidance: { install: "npm i -g x", upgrade: "x update", doctorCommand: "x doctor", launchArgs: ["-p"] },
};

const sb = sandboxPerTest();

/** Writes an executable fake `claude` that logs its argv and answers `--version` with `version`. */
async function fakeClaude(file: string, version = "2.1.332", head = "#!/bin/sh"): Promise<string> {
  await fs.mkdir(path.dirname(file), { recursive: true });
  const log = path.join(sb().root, "claude.log");
  const body = [
    head,
    `echo "$0 $*" >> '${log}'`,
    `case "$1" in --version) echo "${version} (Claude Code)";; --verify) exit 0;; *) exit 2;; esac`,
    "",
  ];
  await fs.writeFile(file, body.join("\n"), { mode: 0o755 });
  return file;
}

function claudeRuns(): string[] {
  try {
    return readFileSync(path.join(sb().root, "claude.log"), "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

describe("discoverExecutable: a second CLI through the same engine", () => {
  it("finds a claude only the login shell's PATH has, with no Codex in sight", async () => {
    const loginOnly = await fakeClaude(path.join(await sb().dir("login-only"), "claude"));
    await sb().fakeCodex(await sb().dir("codex-on-path")); // a codex on PATH is no claude candidate
    const shell = path.join(await sb().dir("shell"), "fakesh");
    await fs.writeFile(
      shell,
      [
        "#!/bin/sh",
        'echo "rc noise"',
        "for last; do :; done",
        `PATH="${path.dirname(loginOnly)}:/usr/bin:/bin"; export PATH`,
        '/bin/sh -c "$last"',
        "",
      ].join("\n"),
      { mode: 0o755 },
    );
    const env = sb().env({ SHELL: shell, PATH: path.join(sb().root, "codex-on-path") });
    const report = await discoverExecutable(CLAUDE_LIKE, sb().options(env, { mode: "all" }));
    expect(report.available).toBe(true);
    expect(report.chosen).toEqual({
      launch: {
        type: "native",
        command: loginOnly,
        env: { PATH: `${path.dirname(loginOnly)}:/usr/bin:/bin:${path.join(sb().root, "codex-on-path")}` },
      },
      path: loginOnly,
      version: "2.1.332",
      source: "login-shell-path",
    });
    expect(report.candidates.map((c) => c.path)).toEqual([loginOnly]);
    // no verify step in this spec: two probes
    expect(report.candidates[0]?.probes.map((p) => [p.probe, p.result])).toEqual([
      ["executable", "pass"],
      ["version", "pass"],
    ]);
    expect(sb().invocations()).toEqual([]); // the codex was never started
  });

  it("runs a cli.js-era claude (#!/usr/bin/env node) in an nvm dir through the node beside it", async () => {
    const bin = await sb().dir("home", ".nvm", "versions", "node", "v22.1.0", "bin");
    const script = path.join(bin, "claude");
    await fs.writeFile(
      script,
      '#!/usr/bin/env node\nif (process.argv[2] === "--version") console.log("2.1.112 (Claude Code)");\n',
      { mode: 0o755 },
    );
    await fs.symlink(process.execPath, path.join(bin, "node"));
    const report = await discoverExecutable(CLAUDE_LIKE, sb().options(sb().env()));
    expect(report.chosen).toMatchObject({
      launch: { type: "node-launcher", node: path.join(bin, "node"), script },
      version: "2.1.112",
      source: "known-location",
    });
    expect(report.candidates[0]).toMatchObject({ label: "nvm node versions", launch: "node-launcher" });
  });

  it("starts the platform package's binary instead of npm's <4 KB stub", async () => {
    const scope = await sb().dir("npm", "lib", "node_modules", "@anthropic-ai");
    const stub = path.join(scope, "claude-code", "bin", "claude.exe");
    await fs.mkdir(path.dirname(stub), { recursive: true });
    // the stub has no #! line on purpose; it prints why and exits 1
    await fs.writeFile(stub, "echo 'Error: claude native binary not installed.' >&2\nexit 1\n", {
      mode: 0o755,
    });
    const native = await fakeClaude(
      path.join(scope, `claude-code-${process.platform}-${process.arch}`, "claude"),
    );
    const bin = await sb().dir("npm", "bin");
    await fs.symlink(stub, path.join(bin, "claude"));
    const report = await discoverExecutable(CLAUDE_LIKE, sb().options(sb().env({ PATH: bin })));
    expect(report.candidates[0]).toMatchObject({ path: path.join(bin, "claude"), launch: "npm-native" });
    expect(report.chosen?.launch).toEqual({ type: "native", command: native });
    expect(claudeRuns()).toEqual([`${native} --version`]);
  });

  it("takes its own override variable first and looks in its own install dir", async () => {
    const legacy = await fakeClaude(path.join(sb().home, ".claude", "local", "claude"));
    const override = await fakeClaude(path.join(await sb().dir("custom"), "claude"), "2.1.300");
    const env = sb().env({ RENNET_CLAUDE_BIN: override, RENNET_CODEX_BIN: "/nonexistent/codex" });
    const report = await discoverExecutable(CLAUDE_LIKE, sb().options(env, { mode: "all" }));
    expect(report.candidates.map((c) => [c.path, c.source, c.label, c.chosen])).toEqual([
      [override, "env-override", "RENNET_CLAUDE_BIN", true],
      [legacy, "known-location", "Claude Code local install", false],
    ]);
    const explicit = await discoverExecutable(
      CLAUDE_LIKE,
      sb().options(sb().env(), { explicitPath: path.join(sb().root, "nope", "claude") }),
    );
    expect(explicit.reason).toBe(
      `--claude-bin ${path.join(sb().root, "nope", "claude")}: executable: not found`,
    );
  });

  it("refuses a version older than the spec supports with the spec's own code and message", async () => {
    const old = await fakeClaude(path.join(await sb().dir("old"), "claude"), "1.0.128");
    const report = await discoverExecutable(CLAUDE_LIKE, sb().options(sb().env({ PATH: path.dirname(old) })));
    expect(report.code).toBe("CLAUDE_UNSUPPORTED_VERSION");
    expect(report.reason).toBe(`claude 1.0.128 is older than the oldest supported 2.0.64 (${old})`);
    expect(report.candidates[0]?.probes.map((p) => [p.probe, p.result])).toEqual([
      ["executable", "pass"],
      ["version", "fail"],
    ]);
    const none = await discoverExecutable(CLAUDE_LIKE, sb().options(sb().env()));
    expect(none.reason).toMatch(/^no claude executable found in \d+ directories/);
  });

  it("runs the spec's own verify step, caches a pass under the spec's tag, and a warm discovery starts nothing", async () => {
    const claude = await fakeClaude(path.join(await sb().dir("a"), "claude"));
    const verified: ExecutableSpec<"CLAUDE_UNSUPPORTED_VERSION", "verify"> = {
      ...CLAUDE_LIKE,
      verify: {
        name: "verify",
        async run(launch, context) {
          const spec = launchSpec(launch, ["--verify"], context.launchOptions);
          const result = await runCommand(spec, { timeoutMs: context.timeoutMs, signal: context.signal });
          return result.type === "exited" && result.code === 0
            ? { type: "pass", ms: result.ms }
            : { type: "fail", reason: result.type, ms: result.ms };
        },
      },
    };
    const env = sb().env({ PATH: path.dirname(claude) });
    const cold = await discoverExecutable(verified, sb().options(env));
    expect(cold.candidates[0]?.probes.map((p) => [p.probe, p.result])).toEqual([
      ["executable", "pass"],
      ["version", "pass"],
      ["verify", "pass"],
    ]);
    expect(claudeRuns()).toEqual([`${claude} --version`, `${claude} --verify`]);
    const warm = await discoverExecutable(verified, sb().options(env));
    expect(warm.candidates[0]).toMatchObject({ cached: true, outcome: "passed" });
    expect(warm.chosen).toEqual(cold.chosen);
    expect(claudeRuns()).toHaveLength(2);
    const cache = JSON.parse(await fs.readFile(path.join(sb().cacheDir, "probe-cache.json"), "utf8")) as {
      probes: Record<string, unknown>;
    };
    expect(Object.keys(cache.probes).map((key) => (JSON.parse(key) as unknown[])[1])).toEqual([
      "claude-probe/1",
    ]);
  });
});

describe("a second CLI on Windows (pure)", () => {
  it("npm's claude.cmd brings the package's claude.exe along, ranked first; the .cmd runs without a shell", async () => {
    const { ranked } = await rankNpmClaudeShims(CLAUDE_LIKE, 1_000_000);
    expect(ranked).toEqual([
      [NPM_CLAUDE_EXE, "windows-exe", "npm global, npm package's claude.exe"],
      [`${NPM_DIR}\\claude.cmd`, "windows-cmd", "npm global"],
    ]);
    const spec = launchSpec({ type: "windows-cmd", shim: `${NPM_DIR}\\claude.cmd` }, ["-p"], { baseEnv: {} });
    expect(spec).toMatchObject({
      command: "C:\\Windows\\System32\\cmd.exe",
      windowsVerbatimArguments: true,
    });
    expect(spec.args.slice(0, 5)).toEqual(["/d", "/e:on", "/v:off", "/s", "/c"]);
  });
});

describe("the neutral discovery layer", () => {
  it("names no harness: src/discovery mentions neither Codex nor Claude", () => {
    const dir = path.resolve(import.meta.dirname, "../../src/discovery");
    const mentions = readdirSync(dir).flatMap((name) =>
      readFileSync(path.join(dir, name), "utf8")
        .split("\n")
        .map((line, index) => `${name}:${index + 1}: ${line.trim()}`)
        .filter((line) => /codex|claude|openai|anthropic|app-server/i.test(line.slice(line.indexOf(": ")))),
    );
    expect(mentions).toEqual([]);
  });
});
