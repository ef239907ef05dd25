/**
 * Importing a package entry loads only what it needs: the MCP SDK and the JSON Schema validator (schemasafe) are
 * loaded where they are used (the loopback MCP server, the first schema compiled, the CLI), never by
 * `import "rennet-adapters"`.
 * Each case runs in a fresh node process whose module resolutions are recorded by a `module.register` hook
 * (ES modules imported), by the module files it reads (ES modules loaded by `require`, with their graphs) and by
 * `require.cache` (CommonJS modules).
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/codex-bin.js";
import { FAKE_APP_SERVER_BIN } from "../cli/helpers/cli-process.js";
import { fakeSteps } from "../../src/testkit/index.js";

const HOOK = `
import { appendFileSync } from "node:fs";
let log;
export function initialize(data) {
  log = data.log;
}
export async function resolve(specifier, context, nextResolve) {
  const resolved = await nextResolve(specifier, context);
  appendFileSync(log, resolved.url + "\\n");
  return resolved;
}
`;

const WATCHED = /\/node_modules\/(@modelcontextprotocol\/sdk|@exodus\/schemasafe|ajv|picocolors)\//;
const DIST = pathToFileURL(path.join(REPO_ROOT, "dist")).href;

let dir: string;
let runs = 0;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), "rennet-entry-loads-"));
  writeFileSync(path.join(dir, "hook.mjs"), HOOK);
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `body` (an ES module body) in a fresh node process; returns the URL of every module it loaded. */
function loadedModules(body: string): string[] {
  const log = path.join(dir, `loaded-${(runs += 1)}.log`);
  writeFileSync(log, "");
  const script = `
import fs, { appendFileSync } from "node:fs";
import { createRequire, register, syncBuiltinESMExports } from "node:module";
import { pathToFileURL } from "node:url";
const log = ${JSON.stringify(log)};
register(${JSON.stringify(pathToFileURL(path.join(dir, "hook.mjs")).href)}, { data: { log } });
// modules loaded by require (an ES module's whole graph, too) bypass the resolve hook: their reads are recorded
for (const [target, name] of [[fs, "readFileSync"], [fs, "openSync"], [fs.promises, "readFile"]]) {
  const original = target[name];
  target[name] = function (file, ...rest) {
    const url = file instanceof URL ? file.href : typeof file === "string" ? pathToFileURL(file).href : "";
    if (/\\.(js|mjs|cjs)$/.test(url)) appendFileSync(log, url + "\\n");
    return original.call(this, file, ...rest);
  };
}
syncBuiltinESMExports();
${body}
const required = Object.keys(createRequire(${JSON.stringify(`${REPO_ROOT}/`)}).cache);
appendFileSync(log, required.map((file) => pathToFileURL(file).href + "\\n").join(""));
const builtins = process.moduleLoadList.filter((name) => name.startsWith("NativeModule "));
appendFileSync(log, builtins.map((name) => "builtin:" + name.slice("NativeModule ".length) + "\\n").join(""));
`;
  execFileSync(process.execPath, ["--input-type=module", "-e", script], { cwd: REPO_ROOT, encoding: "utf8" });
  return readFileSync(log, "utf8").split("\n").filter(Boolean);
}

/** The watched packages among the loaded modules, sorted. */
function watchedPackages(urls: readonly string[]): string[] {
  const names = new Set<string>();
  for (const url of urls) {
    const match = WATCHED.exec(url);
    if (match?.[1]) names.add(match[1]);
  }
  return [...names].sort();
}

describe("what importing a package entry loads", () => {
  it("rennet-adapters loads no MCP SDK, no schema validator and no colours", () => {
    const loaded = loadedModules(`await import("rennet-adapters");`);
    expect(loaded).toContain(`${DIST}/index.js`);
    expect(watchedPackages(loaded)).toEqual([]);
  });

  it("rennet-adapters loads neither discovery, the MCP inventory nor its TOML renderer until they are used", () => {
    const loaded = loadedModules(`await import("rennet-adapters");`);
    expect(loaded.filter((url) => url.includes("/node_modules/smol-toml/"))).toEqual([]);
    expect(loaded.filter((url) => url.includes("/dist/codex/discovery/discover.js"))).toEqual([]);
    expect(loaded.filter((url) => url.includes("/dist/discovery/discover-executable.js"))).toEqual([]);
    expect(loaded.filter((url) => url.includes("/dist/codex/mcp/mcp-inventory.js"))).toEqual([]);
    const used = loadedModules(`
const { discoverCodex } = await import("rennet-adapters");
await discoverCodex({ env: { PATH: "/nonexistent" }, loginShell: false, cache: "off", homedir: "/nonexistent" });
`);
    expect(used).toContain(`${DIST}/codex/discovery/discover.js`);
  });

  it("rennet-adapters loads no turn runner, no process machinery and no protocol half until a session needs them", () => {
    const lateLoaded = (urls: readonly string[]): string[] =>
      urls.filter(
        (url) =>
          url.includes("/dist/process/") ||
          url.endsWith("/dist/session/child-session.js") ||
          url.endsWith("/dist/session/session-core.js") ||
          /\/dist\/(codex\/turn\/turn-runner|claude\/turn\/claude-turn-runner)\.js$/.test(url) ||
          url.endsWith("/dist/codex/app-server/app-server-session.js") ||
          url.endsWith("/dist/codex/launch/explicit-codex.js") ||
          /\/dist\/codex\/turn\/(turn-child|turn-start|event-mapper)\.js$/.test(url) ||
          /\/dist\/claude\/(event-mapper|turn\/claude-turn-protocol|client\/prepare-claude-turn)\.js$/.test(
            url,
          ) ||
          url === "node:child_process" ||
          url === "node:crypto",
      );
    expect(lateLoaded(loadedModules(`await import("rennet-adapters");`))).toEqual([]);
    // one session on the fake app-server: the process machinery loads to spawn it, the protocol half to speak to it
    const script = JSON.stringify({ turn: [] });
    const used = loadedModules(`
const { createCodex } = await import("rennet-adapters");
const client = createCodex({
  codex: { launch: { type: "node-launcher", node: process.execPath, script: ${JSON.stringify(FAKE_APP_SERVER_BIN)} }, path: "fake", version: null, source: "explicit" },
  env: { ...process.env, RENNET_FAKE_SCRIPT_JSON: ${JSON.stringify(script)} },
  reapOrphans: false,
});
const session = client.runStreamed({ prompt: "hi", timeouts: { turnMs: 10000 } });
for await (const event of session.events) if (event.type === "session.started") session.cancel("enough");
await session.result;
`);
    expect(used).toContain(`${DIST}/codex/turn/turn-runner.js`);
    expect(used).toContain(`${DIST}/process/stdio-launcher.js`);
    expect(used).toContain(`${DIST}/codex/turn/turn-child.js`);
    // ids come from /dev/urandom where there is one: node's crypto costs a fresh process ~5 ms to load
    if (process.platform !== "win32") expect(used.filter((url) => url.includes("crypto"))).toEqual([]);
    expect(used).toContain("builtin:child_process");
  });

  it("rennet-adapters/testkit loads none of them either", () => {
    const loaded = loadedModules(`await import("rennet-adapters/testkit");`);
    expect(loaded).toContain(`${DIST}/testkit/index.js`);
    expect(watchedPackages(loaded)).toEqual([]);
  });

  it("the CLI's entry loads no package from node_modules: command lines are parsed with node:util", () => {
    const loaded = loadedModules(`await import(${JSON.stringify(`${DIST}/cli/main.js`)});`);
    expect(loaded).toContain(`${DIST}/cli/command-line.js`);
    expect(loaded.filter((url) => url.includes("/node_modules/"))).toEqual([]);
  });

  it("the CLI's entry loads no command's spec, action, report or colour machinery before a command runs", () => {
    const loaded = loadedModules(`await import(${JSON.stringify(`${DIST}/cli/main.js`)});`);
    expect(loaded).toContain(`${DIST}/cli/commands/command-table.js`);
    const heavy = loaded.filter(
      (url) =>
        /\/dist\/cli\/commands\/(codex|claude)-[a-z-]+\.js$/.test(url) ||
        /\/dist\/cli\/(report-command|color|run-turn-command)\.js$/.test(url) ||
        /\/dist\/codex\/(client\/codex-client|schema\/[a-z-]+)\.js$/.test(url) ||
        url.includes("/node_modules/picocolors/"),
    );
    expect(heavy).toEqual([]);
  });

  it("a `codex run` turn loads neither the utility executor nor its schema machinery", () => {
    const wrapper = path.join(dir, "fake-codex");
    writeFileSync(wrapper, `#!/bin/sh\nexec "${process.execPath}" "${FAKE_APP_SERVER_BIN}" "$@"\n`, {
      mode: 0o755,
    });
    const script = JSON.stringify({ turn: fakeSteps.textTurn("hello", ["hel", "lo"]) });
    const loaded = loadedModules(`
process.env.RENNET_FAKE_SCRIPT_JSON = ${JSON.stringify(script)};
process.env.RENNET_STATE_DIR = ${JSON.stringify(path.join(dir, "state"))};
const { main } = await import(${JSON.stringify(`${DIST}/cli/main.js`)});
const code = await main(["codex", "run", "--json", "--codex-bin", ${JSON.stringify(wrapper)}, "hi"]);
if (code !== 0) throw new Error("rennet codex run exited " + code);
`);
    expect(loaded).toContain(`${DIST}/codex/client/session-client.js`);
    expect(loaded).toContain(`${DIST}/codex/turn/turn-child.js`);
    const utility = loaded.filter((url) =>
      /\/dist\/codex\/(client\/codex-client|client\/utility-executor|schema\/[a-z-]+)\.js$/.test(url),
    );
    expect(utility).toEqual([]);
  });

  it("a `claude run` turn loads no schema compiler, no Codex, no other command and no terminal prompts", () => {
    const wrapper = path.join(dir, "fake-claude");
    const bin = path.join(REPO_ROOT, "dist", "testkit", "fake-claude-bin.js");
    writeFileSync(wrapper, `#!/bin/sh\nexec "${process.execPath}" "${bin}" "$@"\n`, { mode: 0o755 });
    const loaded = loadedModules(`
process.env.RENNET_FAKE_CLAUDE_SCRIPT_JSON = ${JSON.stringify(JSON.stringify({}))};
process.env.RENNET_STATE_DIR = ${JSON.stringify(path.join(dir, "state"))};
process.env.IS_SANDBOX = "1";
const { main } = await import(${JSON.stringify(`${DIST}/cli/main.js`)});
const code = await main(["claude", "run", "--json", "--claude-bin", ${JSON.stringify(wrapper)}, "hi"]);
if (code !== 0) throw new Error("rennet claude run exited " + code);
`);
    expect(loaded).toContain(`${DIST}/claude/client/claude-session-client.js`);
    expect(loaded).toContain(`${DIST}/cli/commands/claude-run.js`);
    expect(watchedPackages(loaded)).toEqual([]);
    // the CLI's flag checks for both harnesses share codex's thread-id and summary checks; nothing else of codex
    const unused = loaded.filter(
      (url) =>
        (/\/dist\/codex\/.*\.js$/.test(url) && !url.endsWith("/dist/codex/client/turn-inputs.js")) ||
        /\/dist\/(claude\/client\/claude-client|tools\/define-tool|cli\/terminal-approvals)\.js$/.test(url) ||
        /\/dist\/cli\/commands\/(codex-[a-z-]+|claude-(exec|doctor|mcp-isolation))\.js$/.test(url),
    );
    expect(unused).toEqual([]);
  });

  it("a warm discovery starts no process: every probe's result comes from the cache", () => {
    const wrapper = path.join(dir, "fake-codex-discovered");
    const calls = path.join(dir, "fake-codex-discovered.log");
    writeFileSync(
      wrapper,
      `#!/bin/sh\necho "$1" >> "${calls}"\nexec "${process.execPath}" "${FAKE_APP_SERVER_BIN}" "$@"\n`,
      { mode: 0o755 },
    );
    const body = `
const { discoverCodex } = await import("rennet-adapters");
const report = await discoverCodex({
  env: { PATH: "/nonexistent", RENNET_CODEX_BIN: ${JSON.stringify(wrapper)} },
  loginShell: false,
  cacheDir: ${JSON.stringify(path.join(dir, "discovery-cache"))},
  homedir: "/nonexistent",
});
if (!report.available) throw new Error(JSON.stringify(report));
`;
    const started = (): string[] => readFileSync(calls, "utf8").split("\n").filter(Boolean);
    writeFileSync(calls, "");
    expect(loadedModules(body)).toContain(`${DIST}/discovery/discover-executable.js`);
    expect(started()).toEqual(["--version", "app-server"]);
    loadedModules(body);
    expect(started()).toEqual(["--version", "app-server"]);
  });

  it("compiling a schema loads schemasafe on first use (the recording sees a required CommonJS module)", () => {
    const loaded = loadedModules(`
const { prepareStructuredOutput } = await import(${JSON.stringify(`${DIST}/codex/schema/structured-output.js`)});
prepareStructuredOutput({ type: "object", properties: { a: { type: "string" } }, required: ["a"] });
`);
    expect(watchedPackages(loaded)).toEqual(["@exodus/schemasafe"]);
  });

  it("starting the loopback MCP server loads the MCP SDK on first use", () => {
    const loaded = loadedModules(`
const { startLoopbackMcpServer } = await import("rennet-adapters/testkit");
const server = await startLoopbackMcpServer();
await server.close();
`);
    expect(watchedPackages(loaded)).toContain("@modelcontextprotocol/sdk");
  });
});
