import { getEventListeners } from "node:events";
import { promises as fs } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it, onTestFinished } from "vitest";
import { codexLaunchSpec } from "../../../src/codex/launch/codex-launch.js";
import { discoverCodex } from "../../../src/codex/discovery/discover.js";
import { NPM_LAUNCHER_MARKER } from "../../../src/codex/launch/npm-native.js";
import { inspectNative } from "../../../src/discovery/native-host.js";
import { FAKE_CODEX, sandboxPerTest } from "../../helpers/discovery-sandbox.js";
import { waitFor } from "../../helpers/wait.js";

const sb = sandboxPerTest();

describe("discoverCodex: candidates and ranking", () => {
  it("ranks by directory order (PATH order, not version) and reports every candidate in mode all", async () => {
    const first = await sb().fakeCodex(await sb().dir("a"), { version: "1.0.0" });
    const second = await sb().fakeCodex(await sb().dir("b"), { version: "2.0.0" });
    const env = sb().env({ PATH: `${path.dirname(first)}:${path.dirname(second)}` });
    const report = await discoverCodex(sb().options(env, { mode: "all" }));
    expect(report.available).toBe(true);
    expect(report.chosen?.path).toBe(first);
    expect(report.chosen?.version).toBe("1.0.0");
    expect(report.chosen?.source).toBe("process-path");
    expect(report.chosen?.launch).toEqual({ type: "native", command: first });
    expect(report.candidates.map((c) => [c.rank, c.path, c.outcome, c.chosen])).toEqual([
      [1, first, "passed", true],
      [2, second, "passed", false],
    ]);
    expect(report.candidates[1]?.probes.map((p) => [p.probe, p.result])).toEqual([
      ["executable", "pass"],
      ["version", "pass"],
      ["handshake", "pass"],
    ]);
    // the report is plain data for --json
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
  });

  it("finds codex in known install locations when PATH has none (nvm newest version first, then Homebrew)", async () => {
    const older = await sb().fakeCodex(path.join(sb().home, ".nvm/versions/node/v9.11.0/bin"), {
      version: "0.1.0",
    });
    const newer = await sb().fakeCodex(path.join(sb().home, ".nvm/versions/node/v22.1.0/bin"), {
      version: "0.2.0",
    });
    const brew = await sb().fakeCodex(path.join(sb().systemRoot, "opt/homebrew/bin"));
    const report = await discoverCodex(sb().options(sb().env(), { mode: "all" }));
    expect(report.candidates.map((c) => [c.path, c.source, c.label])).toEqual([
      [brew, "known-location", "Homebrew"],
      [newer, "known-location", "nvm node versions"],
      [older, "known-location", "nvm node versions"],
    ]);
    expect(report.chosen?.path).toBe(brew);
  });

  it("a failing first candidate does not hide a working second one, and says which probe failed and why", async () => {
    const broken = await sb().fakeCodex(await sb().dir("a"), { mode: "version-fails" });
    const noVersion = await sb().fakeCodex(await sb().dir("b"), { mode: "no-version" });
    const badInit = await sb().fakeCodex(await sb().dir("c"), { mode: "handshake-error" });
    const dies = await sb().fakeCodex(await sb().dir("d"), { mode: "handshake-exit" });
    const good = await sb().fakeCodex(await sb().dir("e"));
    const notExec = path.join(await sb().dir("f"), "codex");
    await fs.writeFile(notExec, "#!/bin/sh\n", { mode: 0o644 });
    const dirs = [broken, noVersion, badInit, dies, good, notExec].map((file) => path.dirname(file));
    const report = await discoverCodex(sb().options(sb().env({ PATH: dirs.join(":") }), { mode: "all" }));
    expect(report.chosen?.path).toBe(good);
    const byPath = new Map(report.candidates.map((c) => [c.path, c]));
    expect(byPath.get(broken)?.outcome).toBe("failed");
    expect(byPath.get(broken)?.reason).toMatch(
      /^version: exited with code 1: fake codex: --version is broken here$/,
    );
    expect(byPath.get(noVersion)?.reason).toMatch(/^version: printed no version/);
    expect(byPath.get(badInit)?.reason).toMatch(
      /^handshake: initialize was answered with an error: fake init failure/,
    );
    expect(byPath.get(badInit)?.version).toBe("0.171.0");
    expect(byPath.get(dies)?.reason).toMatch(
      /^handshake: exited with code 3 before answering initialize: fake codex: app-server cannot start/,
    );
    expect(byPath.get(notExec)?.reason).toBe(
      "executable: is not executable (no execute permission for this user)",
    );
    expect(byPath.get(notExec)?.probes.map((p) => p.result)).toEqual(["fail", "skipped", "skipped"]);
  });

  it("reports unavailable with every candidate when none passes, and no fallback", async () => {
    const broken = await sb().fakeCodex(await sb().dir("a"), { mode: "version-fails" });
    const report = await discoverCodex(sb().options(sb().env({ PATH: path.dirname(broken) })));
    expect(report.available).toBe(false);
    expect(report.chosen).toBeNull();
    expect(report.candidates).toHaveLength(1);
    expect(report.reason).toMatch(
      /^none of 1 candidate passed every probe; best-ranked: .*codex: version: exited with code 1/,
    );
  });

  it("reports unavailable with the number of directories searched when nothing is found", async () => {
    const report = await discoverCodex(sb().options(sb().env()));
    expect(report.available).toBe(false);
    expect(report.candidates).toEqual([]);
    expect(report.reason).toMatch(/^no codex executable found in \d+ directories/);
  });

  it("in first-passing mode stops a worse-ranked candidate once the best one passed", async () => {
    const good = await sb().fakeCodex(await sb().dir("a"));
    const hangs = await sb().fakeCodex(await sb().dir("b"), { mode: "handshake-hang" });
    const env = sb().env({ PATH: `${path.dirname(good)}:${path.dirname(hangs)}` });
    // with a 60 s probe deadline a hanging handshake that is not stopped would fail the test by its timeout
    const report = await discoverCodex(sb().options(env, { timeoutMs: 60_000 }));
    expect(report.chosen?.path).toBe(good);
    const second = report.candidates[1];
    expect(second?.path).toBe(hangs);
    expect(second?.outcome).toBe("not-probed");
    expect(second?.reason).toMatch(/a better-ranked candidate passed/);
  });

  it("probes a symlink and its target once and reports the duplicate", async () => {
    const real = await sb().fakeCodex(await sb().dir("real"));
    // a binary-like candidate (no #! line) is deduplicated by real path; the wrapper has one, so copy the idea
    const binary = path.join(await sb().dir("bin"), "codex");
    await fs.copyFile(process.execPath, binary);
    const link = path.join(await sb().dir("link"), "codex");
    await fs.symlink(binary, link);
    const env = sb().env({ PATH: [path.dirname(real), path.dirname(binary), path.dirname(link)].join(":") });
    const report = await discoverCodex(sb().options(env, { mode: "all" }));
    const dup = report.candidates.find((c) => c.path === link);
    expect(dup?.outcome).toBe("not-probed");
    expect(dup?.duplicateOf).toBe(binary);
    expect(report.candidates.find((c) => c.path === binary)?.outcome).toBe("failed");
  });
});

describe("discoverCodex: RENNET_CODEX_BIN", () => {
  it("is probed first and wins when it passes", async () => {
    const onPath = await sb().fakeCodex(await sb().dir("path"));
    const override = await sb().fakeCodex(await sb().dir("custom"), { version: "9.9.9" });
    const env = sb().env({ PATH: path.dirname(onPath), RENNET_CODEX_BIN: override });
    const report = await discoverCodex(sb().options(env));
    expect(report.chosen?.path).toBe(override);
    expect(report.chosen?.source).toBe("env-override");
    expect(report.chosen?.version).toBe("9.9.9");
    expect(report.candidates.map((c) => c.path)).toEqual([override]);
    // mode all still lists everything, override first
    const all = await discoverCodex(sb().options(env, { mode: "all" }));
    expect(all.candidates.map((c) => [c.path, c.chosen])).toEqual([
      [override, true],
      [onPath, false],
    ]);
  });

  it("when it fails, the report says why and discovery continues", async () => {
    const onPath = await sb().fakeCodex(await sb().dir("path"));
    const override = await sb().fakeCodex(await sb().dir("custom"), { mode: "handshake-exit" });
    const report = await discoverCodex(
      sb().options(sb().env({ PATH: path.dirname(onPath), RENNET_CODEX_BIN: override })),
    );
    expect(report.chosen?.path).toBe(onPath);
    expect(report.candidates[0]).toMatchObject({
      path: override,
      source: "env-override",
      outcome: "failed",
      rank: 1,
    });
    expect(report.candidates[0]?.reason).toMatch(/^handshake: exited with code 3/);
  });

  it("a missing override file is reported as such", async () => {
    const onPath = await sb().fakeCodex(await sb().dir("path"));
    const missing = path.join(sb().root, "nope", "codex");
    const report = await discoverCodex(
      sb().options(sb().env({ PATH: path.dirname(onPath), RENNET_CODEX_BIN: missing })),
    );
    expect(report.chosen?.path).toBe(onPath);
    expect(report.candidates[0]).toMatchObject({
      path: missing,
      outcome: "failed",
      reason: "executable: not found",
    });
  });
});

describe("discoverCodex: --codex-bin", () => {
  it("probes exactly that file: no other candidate, no fallback", async () => {
    const onPath = await sb().fakeCodex(await sb().dir("path"));
    const given = await sb().fakeCodex(await sb().dir("given"), { mode: "version-fails" });
    const report = await discoverCodex(
      sb().options(sb().env({ PATH: path.dirname(onPath) }), { codexBin: given }),
    );
    expect(report.available).toBe(false);
    expect(report.candidates.map((c) => [c.path, c.label])).toEqual([[given, "--codex-bin"]]);
    expect(report.reason).toBe(
      `--codex-bin ${given}: version: exited with code 1: fake codex: --version is broken here`,
    );
    const ok = await discoverCodex(sb().options(sb().env(), { codexBin: onPath }));
    expect(ok.chosen).toMatchObject({
      path: onPath,
      source: "env-override",
      launch: { type: "native", command: onPath },
    });
  });
});

describe("discoverCodex: node launcher (asdf, nvm, … without node on PATH)", () => {
  it("runs a #!/usr/bin/env node codex through the node beside it, and launches the session the same way", async () => {
    const bin = await sb().dir("home", ".asdf", "installs", "nodejs", "22.1.0", "bin");
    const script = path.join(bin, "codex");
    await fs.writeFile(
      script,
      `#!/usr/bin/env node\nimport(${JSON.stringify(pathToFileURL(FAKE_CODEX).href)});\n`,
      { mode: 0o755 },
    );
    const node = path.join(bin, "node");
    await fs.symlink(process.execPath, node);
    // PATH has no node: the direct launch fails with exit 127 from /usr/bin/env
    const report = await discoverCodex(sb().options(sb().env(), { mode: "all" }));
    expect(report.available).toBe(true);
    expect(report.chosen).toMatchObject({
      launch: { type: "node-launcher", node, script },
      path: script,
      source: "known-location",
      version: "0.171.0",
    });
    const version = report.candidates[0]?.probes.find((p) => p.probe === "version");
    expect(version?.result).toBe("pass");
    expect(version?.reason).toMatch(
      /^direct launch failed \(exited with code 127: .*node.*\); ran through the node beside it$/,
    );
    const spec = codexLaunchSpec(report.chosen!.launch, ["app-server"], { baseEnv: {} });
    expect([spec.command, ...spec.args]).toEqual([node, script, "app-server"]);
    // the handshake itself ran through the sibling node
    expect(
      sb()
        .invocations()
        .filter((i) => i.args[0] === "app-server")
        .map((i) => i.argv1),
    ).toEqual([script]);
  });
});

describe("discoverCodex: macOS bundles", () => {
  it("ranks ChatGPT.app / Codex.app below every user-installed CLI, and uses them when nothing else works", async () => {
    const bundle = await sb().fakeCodex(path.join(sb().home, "Applications/ChatGPT.app/Contents/Resources"));
    const codexApp = await sb().fakeCodex(
      path.join(sb().systemRoot, "Applications/Codex.app/Contents/Resources"),
    );
    const userCli = await sb().fakeCodex(path.join(sb().home, ".local/bin"), { mode: "version-fails" });
    const report = await discoverCodex(sb().options(sb().env(), { platform: "darwin", mode: "all" }));
    expect(report.candidates.map((c) => [c.path, c.source])).toEqual([
      [userCli, "known-location"],
      [bundle, "desktop-app"],
      [codexApp, "desktop-app"],
    ]);
    expect(report.chosen?.path).toBe(bundle);

    await sb().fakeCodex(path.join(sb().home, ".local/bin"));
    const fixed = await discoverCodex(sb().options(sb().env(), { platform: "darwin" }));
    expect(fixed.chosen?.path).toBe(userCli);
    expect(fixed.chosen?.source).toBe("known-location");
  });
});

describe("discoverCodex: abort", () => {
  it("rejects with exactly signal.reason and leaves no process behind", async () => {
    const hangs = await sb().fakeCodex(await sb().dir("a"), { mode: "handshake-hang" });
    const controller = new AbortController();
    const reason = new Error("user gave up");
    const running = discoverCodex(
      sb().options(sb().env({ PATH: path.dirname(hangs) }), { signal: controller.signal, timeoutMs: 60_000 }),
    );
    // abort once the hanging app-server has started
    await sb().appServerStarted();
    controller.abort(reason);
    await expect(running).rejects.toBe(reason);
  });

  it("many discoveries sharing one signal keep one listener on it: no MaxListenersExceededWarning", async () => {
    const hangs = await sb().fakeCodex(await sb().dir("a"), { mode: "handshake-hang" });
    const controller = new AbortController();
    const warnings: Error[] = [];
    const onWarning = (warning: Error): number => warnings.push(warning);
    process.on("warning", onWarning);
    onTestFinished(() => void process.off("warning", onWarning));
    const options = sb().options(sb().env({ PATH: path.dirname(hangs) }), {
      signal: controller.signal,
      timeoutMs: 60_000,
    });
    const running = Array.from({ length: 12 }, () => discoverCodex(options));
    await waitFor(
      () =>
        sb()
          .invocations()
          .filter((call) => call.args[0] === "app-server").length === 12,
      "12 probes",
    );
    expect(getEventListeners(controller.signal, "abort").length).toBeLessThanOrEqual(1);
    const reason = new Error("shutdown");
    controller.abort(reason);
    await Promise.all(running.map((discovery) => expect(discovery).rejects.toBe(reason)));
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.map((warning) => warning.name)).not.toContain("MaxListenersExceededWarning");
  });
});

describe.skipIf(process.platform !== "linux" || !["x64", "arm64"].includes(process.arch))(
  "discoverCodex: npm's launcher and the native binary behind it",
  () => {
    /** An npm install in the sandbox: `bin/codex` → `@openai/codex/bin/codex.js` (with `extra` in its text). */
    async function npmInstall(extra: string): Promise<{ bin: string; native: string }> {
      const modules = await sb().dir("npm", "lib", "node_modules");
      const launcher = path.join(modules, "@openai", "codex", "bin", "codex.js");
      await fs.mkdir(path.dirname(launcher), { recursive: true });
      await fs.writeFile(
        launcher,
        `#!/usr/bin/env node\n${extra}\nimport(${JSON.stringify(pathToFileURL(FAKE_CODEX).href)});\n`,
        { mode: 0o755 },
      );
      const triple = `${process.arch === "arm64" ? "aarch64" : "x86_64"}-unknown-linux-musl`;
      const platformPackage = path.join(modules, "@openai", `codex-linux-${process.arch}`);
      const native = await sb().fakeCodex(path.join(platformPackage, "vendor", triple, "bin"));
      const bin = await sb().dir("npm", "bin");
      await fs.symlink(launcher, path.join(bin, "codex"));
      await fs.symlink(process.execPath, path.join(bin, "node"));
      return { bin, native };
    }

    it("launches the native binary when the launcher only sets its two variables", async () => {
      const { bin, native } = await npmInstall("// sets CODEX_MANAGED_BY_NPM and starts the binary");
      const report = await discoverCodex(sb().options(sb().env({ PATH: bin })));
      expect(report.candidates[0]?.launch).toBe("npm-native");
      expect(report.chosen?.launch).toMatchObject({ type: "native", command: native });
    });

    it("reads the text of npm's launcher only", async () => {
      await npmInstall('// PATH = path.join(packageRoot, "codex-path") + PATH');
      const launcher = path.join(
        sb().root,
        "npm",
        "lib",
        "node_modules",
        "@openai",
        "codex",
        "bin",
        "codex.js",
      );
      const other = path.join(await sb().dir("other"), "codex");
      await fs.writeFile(other, '#!/usr/bin/env node\n// "codex-path"\n', { mode: 0o755 });
      expect(
        (await inspectNative("linux", path.join(sb().root, "npm", "bin", "codex"), NPM_LAUNCHER_MARKER))
          ?.scriptMarked,
      ).toBe(true);
      expect((await inspectNative("linux", launcher, NPM_LAUNCHER_MARKER))?.scriptMarked).toBe(true);
      expect((await inspectNative("linux", other, NPM_LAUNCHER_MARKER))?.scriptMarked).toBe(false);
    });

    it("keeps a launcher that puts its bundled tools on PATH (it names codex-path)", async () => {
      const { bin } = await npmInstall('// PATH = path.join(packageRoot, "codex-path") + PATH');
      const report = await discoverCodex(sb().options(sb().env({ PATH: bin })));
      expect(report.candidates[0]?.launch).toBe("direct");
      expect(report.chosen?.launch).toEqual({ type: "native", command: path.join(bin, "codex") });
    });
  },
);
