/**
 * `discoverClaude` over sandboxed fake `claude` executables in each shape Claude Code is installed in: npm's
 * native `bin/claude.exe` (full, or the placeholder left without its postinstall), a `cli.js` under a version
 * manager's node, the native installer's `~/.local/bin` link into its versions, the legacy `~/.claude/local`,
 * Homebrew's cask, the desktop app's copy, the override and an explicit path; too old by `--version` or by its
 * `cli.js` header (never run); something else named `claude`; and a warm cache that starts nothing.
 */
import { existsSync, promises as fs } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { discoverClaude, type DiscoverClaudeOptions } from "../../../src/claude/discovery/discover-claude.js";
import { sandboxPerTest } from "../../helpers/discovery-sandbox.js";
import { fakeRuns, link, writeFakeClaude, writeNpmStub } from "./fake-claude-files.js";

const sb = sandboxPerTest();
const log = (): string => path.join(sb().root, "claude.log");
const options = (env: NodeJS.ProcessEnv, extra: DiscoverClaudeOptions = {}): DiscoverClaudeOptions => ({
  ...sb().options(env),
  arch: "x64",
  ...extra,
});

/** An npm prefix with `@anthropic-ai/claude-code` in `lib/node_modules` and `bin/claude` linked to `target`. */
async function npmPrefix(
  name: string,
  target: (pkg: string) => string,
): Promise<{ prefix: string; pkg: string }> {
  const prefix = await sb().dir(name);
  const pkg = path.join(prefix, "lib", "node_modules", "@anthropic-ai", "claude-code");
  await link(path.relative(path.join(prefix, "bin"), target(pkg)), path.join(prefix, "bin", "claude"));
  return { prefix, pkg };
}

describe("discoverClaude: npm installs", () => {
  it("starts npm's bin/claude.exe (the native binary) through the prefix's bin link", async () => {
    const { prefix, pkg } = await npmPrefix("npm", (p) => path.join(p, "bin", "claude.exe"));
    await writeFakeClaude(path.join(pkg, "bin", "claude.exe"), log());
    const report = await discoverClaude(options(sb().env({ npm_config_prefix: prefix })));
    const bin = path.join(prefix, "bin", "claude");
    expect(report.chosen).toEqual({
      launch: { type: "native", command: bin },
      path: bin,
      version: "2.1.332",
      source: "known-location",
    });
    expect(report.candidates[0]).toMatchObject({ label: "npm prefix (npm_config_prefix)", launch: "direct" });
    expect(report.program).toMatchObject({
      name: "Claude Code",
      executable: "claude",
      overrideVariable: "RENNET_CLAUDE_BIN",
    });
    expect(fakeRuns(log())).toEqual([`${bin} --version`]);
  });

  it("starts the platform package's binary instead of npm's placeholder, wherever npm put it", async () => {
    const layouts: [string, (pkg: string) => string][] = [
      ["beside", (pkg) => path.join(path.dirname(pkg), "claude-code-linux-x64", "claude")],
      ["nested", (pkg) => path.join(pkg, "node_modules", "@anthropic-ai", "claude-code-linux-x64", "claude")],
      ["musl", (pkg) => path.join(path.dirname(pkg), "claude-code-linux-x64-musl", "claude")],
    ];
    for (const [name, platformBinary] of layouts) {
      const { prefix, pkg } = await npmPrefix(name, (p) => path.join(p, "bin", "claude.exe"));
      await writeNpmStub(path.join(pkg, "bin", "claude.exe"));
      const native = await writeFakeClaude(platformBinary(pkg), log());
      const report = await discoverClaude(options(sb().env({ npm_config_prefix: prefix }), { cache: "off" }));
      expect(report.candidates[0], name).toMatchObject({
        path: path.join(prefix, "bin", "claude"),
        launch: "npm-native",
      });
      expect(report.chosen?.launch, name).toEqual({ type: "native", command: native });
    }
    expect(fakeRuns(log()).map((run) => run.split(" ")[1])).toEqual(["--version", "--version", "--version"]);
  });

  it("fails clearly when npm left its placeholder and no platform binary", async () => {
    const { prefix, pkg } = await npmPrefix("npm", (p) => path.join(p, "bin", "claude.exe"));
    await writeNpmStub(path.join(pkg, "bin", "claude.exe"));
    const report = await discoverClaude(options(sb().env({ npm_config_prefix: prefix })));
    expect(report.available).toBe(false);
    expect(report.candidates[0]?.reason).toMatch(
      /^version: exited with code 1: Error: claude native binary not installed/,
    );
  });

  it("runs a cli.js release (up to 2.1.112) in an nvm dir through the node beside it", async () => {
    const bin = await sb().dir("home", ".nvm", "versions", "node", "v22.1.0", "bin");
    const cli = path.join(bin, "..", "lib", "node_modules", "@anthropic-ai", "claude-code", "cli.js");
    await writeFakeClaude(cli, log(), { kind: "node", header: "2.1.112", prints: "2.1.112 (Claude Code)" });
    await link("../lib/node_modules/@anthropic-ai/claude-code/cli.js", path.join(bin, "claude"));
    await fs.symlink(process.execPath, path.join(bin, "node"));
    const report = await discoverClaude(options(sb().env()));
    expect(report.chosen).toMatchObject({
      launch: { type: "node-launcher", node: path.join(bin, "node"), script: path.join(bin, "claude") },
      version: "2.1.112",
    });
    expect(report.candidates[0]).toMatchObject({ label: "nvm node versions", launch: "node-launcher" });
  });
});

describe("discoverClaude: Claude Code's own installs", () => {
  it("ranks the native installer's ~/.local/bin link before the legacy ~/.claude/local and the desktop app's copy", async () => {
    const versions = path.join(sb().home, ".local", "share", "claude", "versions");
    const native = await writeFakeClaude(path.join(versions, "2.1.332"), log());
    const installed = await link(native, path.join(sb().home, ".local", "bin", "claude"));
    const legacy = await writeFakeClaude(path.join(sb().home, ".claude", "local", "claude"), log(), {
      prints: "2.0.77 (Claude Code)",
    });
    const desktop = path.join(
      sb().home,
      "Library",
      "Application Support",
      "Claude",
      "claude-code",
      "2.1.215",
    );
    const bundled = await writeFakeClaude(
      path.join(desktop, "claude.app", "Contents", "MacOS", "claude"),
      log(),
    );
    const report = await discoverClaude(options(sb().env(), { platform: "darwin", mode: "all" }));
    expect(report.candidates.map((c) => [c.path, c.source, c.label, c.version, c.chosen])).toEqual([
      [installed, "known-location", "~/.local/bin (standalone installer)", "2.1.332", true],
      [legacy, "known-location", "Claude Code local install (~/.claude/local)", "2.0.77", false],
      [bundled, "desktop-app", "Claude desktop app's Claude Code", "2.1.332", false],
    ]);
  });

  it("finds Homebrew's claude-code cask through the link it puts in Homebrew's bin", async () => {
    const cask = path.join(
      sb().systemRoot,
      "opt",
      "homebrew",
      "Caskroom",
      "claude-code",
      "2.1.300",
      "claude",
    );
    await writeFakeClaude(cask, log(), { prints: "2.1.300 (Claude Code)" });
    const bin = await link(cask, path.join(sb().systemRoot, "opt", "homebrew", "bin", "claude"));
    const report = await discoverClaude(options(sb().env(), { platform: "darwin", mode: "all" }));
    expect(report.candidates.map((c) => [c.path, c.label, c.outcome])).toEqual([[bin, "Homebrew", "passed"]]);
    expect(report.chosen?.version).toBe("2.1.300");
  });

  it("takes RENNET_CLAUDE_BIN first, and an explicit path alone", async () => {
    const onPath = await writeFakeClaude(path.join(await sb().dir("path"), "claude"), log());
    const override = await writeFakeClaude(path.join(await sb().dir("custom"), "claude"), log(), {
      prints: "2.1.300 (Claude Code)",
    });
    const env = sb().env({ PATH: path.dirname(onPath), RENNET_CLAUDE_BIN: override });
    const report = await discoverClaude(options(env));
    expect(report.chosen).toMatchObject({ path: override, source: "env-override", version: "2.1.300" });
    expect(report.candidates).toHaveLength(1);
    const explicit = await discoverClaude(options(env, { claudeBin: onPath }));
    expect(explicit.candidates.map((c) => [c.path, c.label, c.chosen])).toEqual([
      [onPath, "--claude-bin", true],
    ]);
  });
});

describe("discoverClaude: what it refuses", () => {
  it("refuses a release older than 2.0.64 by its --version, naming the version and the fix", async () => {
    const old = await writeFakeClaude(path.join(await sb().dir("old"), "claude"), log(), {
      prints: "2.0.0 (Claude Code)",
    });
    const report = await discoverClaude(options(sb().env({ PATH: path.dirname(old) })));
    expect(report.code).toBe("CLAUDE_UNSUPPORTED_VERSION");
    expect(report.reason).toBe(
      "Claude Code 2.0.0 is older than the oldest supported 2.0.64 (the first release with " +
        "--no-session-persistence, which keeps Rennet's turns out of your transcript history); update it with " +
        `\`claude update\` (native installer) or \`npm i -g @anthropic-ai/claude-code@latest\` (${old})`,
    );
  });

  it("refuses a 1.0 cli.js from its header without running it (its --version writes files)", async () => {
    const bin = await sb().dir("npm", "bin");
    const cli = path.join(sb().root, "npm", "lib", "node_modules", "@anthropic-ai", "claude-code", "cli.js");
    await writeFakeClaude(cli, log(), { kind: "node", header: "1.0.128", prints: "1.0.128 (Claude Code)" });
    await link(cli, path.join(bin, "claude"));
    await fs.symlink(process.execPath, path.join(bin, "node"));
    const report = await discoverClaude(options(sb().env({ PATH: bin })));
    expect(report.code).toBe("CLAUDE_UNSUPPORTED_VERSION");
    expect(report.reason).toMatch(/^Claude Code 1\.0\.128 is older than the oldest supported 2\.0\.64 /);
    expect(report.candidates[0]?.probes[1]).toMatchObject({
      probe: "version",
      result: "fail",
      reason: expect.stringMatching(/\(stated in the file; not run\)$/),
    });
    expect(fakeRuns(log())).toEqual([]);
  });

  it("does not take another program named claude", async () => {
    const other = path.join(await sb().dir("other"), "claude");
    await writeFakeClaude(other, log(), { prints: "3.4.5" });
    const report = await discoverClaude(options(sb().env({ PATH: path.dirname(other) })));
    expect(report.available).toBe(false);
    expect(report.reason).toContain(`best-ranked: ${other}: version: printed no version (stdout: "3.4.5")`);
    const none = await discoverClaude(options(sb().env()));
    expect(none.reason).toMatch(/^no claude executable found in \d+ directories/);
  });
});

describe("discoverClaude: the probe cache", () => {
  it("probes once: a warm discovery starts nothing, a changed file is probed again", async () => {
    const claude = await writeFakeClaude(path.join(await sb().dir("a"), "claude"), log());
    const env = sb().env({ PATH: path.dirname(claude) });
    const cold = await discoverClaude(options(env));
    const warm = await discoverClaude(options(env));
    expect(warm.candidates[0]).toMatchObject({ cached: true, outcome: "passed" });
    expect(warm.chosen).toEqual(cold.chosen);
    expect(fakeRuns(log())).toHaveLength(1);
    await writeFakeClaude(claude, log(), { prints: "2.1.333 (Claude Code)" });
    expect((await discoverClaude(options(env))).chosen?.version).toBe("2.1.333");
    expect(fakeRuns(log())).toHaveLength(2);
    expect(existsSync(path.join(sb().cacheDir, "probe-cache.json"))).toBe(true);
  });
});
