#!/usr/bin/env node
// Prints what one or more installed codex binaries can do, as JSON, without any model turn.
//
//   node scripts/compat/capability-probe.js 0.72.0 0.171.0            versions from the install-codex cache
//   node scripts/compat/capability-probe.js /path/to/codex            any codex executable
//   node scripts/compat/capability-probe.js --schema-only 0.120.0     skip the app-server and CLI checks
//
// One JSON object per line and per codex. Everything runs with a throw-away HOME and CODEX_HOME (mkdtemp, removed
// afterwards) whose config.toml points at a dead loopback provider and configures three stdio MCP servers (one that
// answers, one that cannot start, one disabled), so the MCP startup reporting can be observed. Every child is
// killed before the script moves on.
//
// Facts:
// - version: `codex --version` (stdout, first line matching `codex-cli X`).
// - schema: `codex app-server generate-json-schema --out DIR`; facts read from the bundle
//   `codex_app_server_protocol.schemas.json` (methods, notifications, enums and fields).
// - cli: `codex features list` (plugins, unified_exec, shell_tool rows), `codex mcp list --json`, and whether
//   `codex app-server --disable plugins` / `-c features.plugins=false` get through `initialize`.
// - appServer: `initialize` result, unsolicited notifications, `thread/start` with `sandbox:"danger-full-access"`
//   (and `dangerFullAccess` when rejected), MCP startup notifications, `mcpServerStatus/list`, `config/read`.
// - trustRewrite: in a separate throw-away home whose config.toml marks a git cwd `untrusted`, whether
//   `thread/start` (thread `config` stating `untrusted` too) rewrites it to `trusted`.
import { spawn } from "node:child_process";
import { chmod, mkdtemp, readdir, readFile, realpath, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cacheRoot, locate } from "./install-codex.js";
import { schemaFacts } from "./schema-facts.js";

const VERSION_PATTERN = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/** Runs a command to completion with a deadline; the child is killed (SIGKILL) when the deadline passes. */
export function runCommand(command, args, { env, cwd, timeoutMs = 30_000, input = null } = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, cwd, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let timedOut = false;
    child.stdout.on("data", (c) => (stdout += c));
    child.stderr.on("data", (c) => (stderr += c));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill("SIGKILL");
    }, timeoutMs);
    child.on("error", (error) => {
      clearTimeout(timer);
      resolve({ code: -1, signal: null, stdout, stderr: stderr + error.message, timedOut });
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
    if (input !== null) child.stdin.end(input);
    else child.stdin.end();
  });
}

/** A throw-away HOME/CODEX_HOME; `env` has both plus NO_PROXY for loopback. */
export async function throwAwayHome(configToml) {
  const dir = await mkdtemp(path.join(os.tmpdir(), "rennet-compat-home-"));
  await writeFile(path.join(dir, "config.toml"), configToml, "utf8");
  const env = { ...process.env, HOME: dir, CODEX_HOME: dir, NO_PROXY: "127.0.0.1,localhost" };
  env.no_proxy = env.NO_PROXY;
  delete env.RUST_LOG;
  return { dir, env, cleanup: () => rm(dir, { recursive: true, force: true, maxRetries: 3 }) };
}

/** A JSON-RPC peer over a spawned `codex app-server`: requests, every frame recorded with its arrival time. */
export function startAppServer(command, args, { env, cwd }) {
  const child = spawn(command, ["app-server", ...args], { env, cwd, stdio: ["pipe", "pipe", "pipe"] });
  const frames = [];
  const pending = new Map();
  let nextId = 1;
  let buffer = "";
  let stderr = "";
  let exited = null;
  const exitWaiters = [];
  const started = Date.now();
  child.stdout.setEncoding("utf8");
  child.stdout.on("data", (chunk) => {
    buffer += chunk;
    for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (line === "") continue;
      let frame;
      try {
        frame = JSON.parse(line);
      } catch {
        frames.push({ at: Date.now() - started, invalid: line.slice(0, 300) });
        continue;
      }
      frames.push({ at: Date.now() - started, frame });
      if (frame.method !== undefined && frame.id !== undefined) {
        // a server request: answer "accept"-like decisions so nothing waits on a person
        const result = frame.method.includes("Approval")
          ? { decision: frame.method.includes("/") ? "accept" : "approved" }
          : {};
        child.stdin.write(`${JSON.stringify({ id: frame.id, result })}\n`);
      } else if (frame.id !== undefined && pending.has(frame.id)) {
        const { resolve } = pending.get(frame.id);
        pending.delete(frame.id);
        resolve(frame);
      }
    }
  });
  child.stderr.on("data", (chunk) => {
    stderr = (stderr + chunk).slice(-20_000);
  });
  child.on("error", (error) => {
    stderr += `\nspawn error: ${error.message}`;
  });
  child.on("close", (code, signal) => {
    exited = { code, signal, at: Date.now() - started };
    for (const { resolve } of pending.values()) resolve({ closed: true });
    pending.clear();
    for (const waiter of exitWaiters) waiter(exited);
  });
  child.stdin.on("error", () => {});
  return {
    child,
    frames,
    get stderr() {
      return stderr;
    },
    get exited() {
      return exited;
    },
    elapsed: () => Date.now() - started,
    request(method, params, timeoutMs = 20_000) {
      if (exited) return Promise.resolve({ closed: true });
      const id = nextId++;
      const message = params === undefined ? { id, method } : { id, method, params };
      child.stdin.write(`${JSON.stringify(message)}\n`);
      return new Promise((resolve) => {
        const timer = setTimeout(() => {
          pending.delete(id);
          resolve({ timeout: true });
        }, timeoutMs);
        pending.set(id, {
          resolve: (frame) => {
            clearTimeout(timer);
            resolve(frame);
          },
        });
      });
    },
    notify(method, params) {
      if (!exited)
        child.stdin.write(`${JSON.stringify(params === undefined ? { method } : { method, params })}\n`);
    },
    waitExit(timeoutMs) {
      if (exited) return Promise.resolve(exited);
      return new Promise((resolve) => {
        const timer = setTimeout(() => resolve(null), timeoutMs);
        exitWaiters.push((value) => {
          clearTimeout(timer);
          resolve(value);
        });
      });
    },
    /** Closes stdin, then SIGTERM, then SIGKILL of the process group's leader; resolves once it exited. */
    async stop() {
      if (exited) return exited;
      child.stdin.end();
      if (await this.waitExit(2_000)) return exited;
      child.kill("SIGTERM");
      if (await this.waitExit(2_000)) return exited;
      child.kill("SIGKILL");
      return this.waitExit(5_000);
    },
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A minimal MCP server over stdio (JSON lines): one tool, empty resources. */
export const STDIO_MCP_SERVER = `
let buffer = "";
process.stdin.setEncoding("utf8");
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  for (let nl = buffer.indexOf("\\n"); nl >= 0; nl = buffer.indexOf("\\n")) {
    const line = buffer.slice(0, nl).trim();
    buffer = buffer.slice(nl + 1);
    if (!line) continue;
    const msg = JSON.parse(line);
    if (msg.id === undefined) continue;
    let result;
    if (msg.method === "initialize") {
      result = { protocolVersion: msg.params.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: "probe", version: "1.0.0" } };
    } else if (msg.method === "tools/list") {
      result = { tools: [{ name: "echo", description: "echo", inputSchema: { type: "object", properties: {} } }] };
    } else if (msg.method === "resources/list") result = { resources: [] };
    else if (msg.method === "resources/templates/list") result = { resourceTemplates: [] };
    else {
      process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: msg.id, error: { code: -32601, message: "no" } }) + "\\n");
      continue;
    }
    process.stdout.write(JSON.stringify({ jsonrpc: "2.0", id: msg.id, result }) + "\\n");
  }
});
process.stdin.on("end", () => process.exit(0));
`;

function probeConfig(mcpScript) {
  const q = JSON.stringify;
  return [
    'model = "mock-model"',
    'model_provider = "mock"',
    "allow_login_shell = false",
    "",
    "[analytics]",
    "enabled = false",
    "",
    "[features]",
    "plugins = false",
    "shell_snapshot = false",
    "",
    "[model_providers.mock]",
    'name = "mock"',
    'base_url = "http://127.0.0.1:9/v1"',
    'wire_api = "responses"',
    "request_max_retries = 0",
    "stream_max_retries = 0",
    "",
    "[mcp_servers.probe_ok]",
    `command = ${q(process.execPath)}`,
    `args = [${q(mcpScript)}]`,
    "startup_timeout_sec = 10",
    "",
    "[mcp_servers.probe_broken]",
    `command = ${q(path.join(os.tmpdir(), "rennet-compat-no-such-binary"))}`,
    "startup_timeout_sec = 10",
    "",
    "[mcp_servers.probe_off]",
    `command = ${q(process.execPath)}`,
    `args = [${q(mcpScript)}]`,
    "enabled = false",
    "",
  ].join("\n");
}

function firstLine(text) {
  return (
    text
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l !== "") ?? ""
  );
}

async function probeVersion(codex, env) {
  const r = await runCommand(codex, ["--version"], { env, timeoutMs: 20_000 });
  const match = /codex-cli\s+(\S+)/.exec(r.stdout);
  return {
    exit: r.code,
    stdout: r.stdout.trim(),
    stderrFirstLine: firstLine(r.stderr),
    version: match ? match[1] : null,
  };
}

async function probeSchema(codex, env) {
  const out = await mkdtemp(path.join(os.tmpdir(), "rennet-compat-schema-"));
  try {
    const r = await runCommand(codex, ["app-server", "generate-json-schema", "--out", out], {
      env,
      timeoutMs: 60_000,
    });
    if (r.code !== 0) {
      return { generated: false, exit: r.code, error: firstLine(r.stderr) || firstLine(r.stdout) };
    }
    const top = (await readdir(out, { withFileTypes: true })).map((d) =>
      d.isDirectory() ? `${d.name}/` : d.name,
    );
    const count = async (dir) => {
      let n = 0;
      for (const d of await readdir(dir, { withFileTypes: true })) {
        n += d.isDirectory() ? await count(path.join(dir, d.name)) : 1;
      }
      return n;
    };
    const bundles = top.filter((name) => name.endsWith(".schemas.json"));
    const bundlePath = path.join(out, "codex_app_server_protocol.schemas.json");
    const bundle = JSON.parse(await readFile(bundlePath, "utf8"));
    return {
      generated: true,
      fileCount: await count(out),
      directories: top.filter((name) => name.endsWith("/")),
      bundles,
      facts: schemaFacts(bundle),
    };
  } catch (error) {
    return { generated: false, error: error instanceof Error ? error.message : String(error) };
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}

/** `codex features list` rows: `name stage enabled`, separated by tabs (≤0.72) or runs of spaces. */
export function parseFeatureList(text) {
  const features = {};
  for (const line of text.split("\n")) {
    const cells = line.trim().split(/\s+/);
    if (cells.length < 3) continue;
    const enabled = cells[cells.length - 1];
    if (enabled !== "true" && enabled !== "false") continue;
    features[cells[0]] = { stage: cells.slice(1, -1).join(" "), enabled: enabled === "true" };
  }
  return features;
}

/** Starts `codex app-server <args>`, sends `initialize`, stops it; whether the handshake succeeded. */
async function launchAccepted(codex, args, env, cwd) {
  const server = startAppServer(codex, args, { env, cwd });
  const init = await server.request(
    "initialize",
    { clientInfo: { name: "rennet-probe", version: "0" } },
    15_000,
  );
  const exit = await server.stop();
  return {
    accepted: init.result !== undefined,
    exit: init.result !== undefined ? null : (exit?.code ?? null),
    error: init.result !== undefined ? null : firstLine(server.stderr.replace(/^WARNING: .*$/gm, "")),
  };
}

async function probeCli(codex, env, cwd) {
  const features = await runCommand(codex, ["features", "list"], { env, cwd, timeoutMs: 20_000 });
  const table = features.code === 0 ? parseFeatureList(features.stdout) : {};
  const mcpList = await runCommand(codex, ["mcp", "list", "--json"], { env, cwd, timeoutMs: 30_000 });
  let mcpListParsed = null;
  if (mcpList.code === 0) {
    try {
      const parsed = JSON.parse(mcpList.stdout);
      mcpListParsed = Array.isArray(parsed)
        ? { entries: parsed.length, keys: parsed[0] ? Object.keys(parsed[0]).sort() : [] }
        : { notArray: true };
    } catch {
      mcpListParsed = { invalidJson: mcpList.stdout.slice(0, 200) };
    }
  }
  return {
    featuresList: {
      exit: features.code,
      count: Object.keys(table).length,
      plugins: table.plugins ?? null,
      unifiedExec: table.unified_exec ?? null,
      shellTool: table.shell_tool ?? null,
      error: features.code === 0 ? null : firstLine(features.stderr),
    },
    mcpListJson: {
      exit: mcpList.code,
      parsed: mcpListParsed,
      error: mcpList.code === 0 ? null : firstLine(mcpList.stderr),
    },
    disablePlugins: await launchAccepted(codex, ["--disable", "plugins"], env, cwd),
    configFeaturesPluginsFalse: await launchAccepted(codex, ["-c", "features.plugins=false"], env, cwd),
  };
}

/**
 * Does `thread/start` rewrite a project's `trust_level = "untrusted"` in config.toml although the thread's
 * `config` states the same level? Runs in its own throw-away home (no model turn) with a git repository as cwd.
 */
async function probeTrustRewrite(codex) {
  const repo = await realpath(await mkdtemp(path.join(os.tmpdir(), "rennet-compat-trust-")));
  await runCommand("git", ["init", "-q", repo]);
  const toml = [
    'model = "mock-model"',
    "[analytics]",
    "enabled = false",
    `[projects.${JSON.stringify(repo)}]`,
    'trust_level = "untrusted"',
    "",
  ].join("\n");
  const home = await throwAwayHome(toml);
  const configPath = path.join(home.dir, "config.toml");
  const server = startAppServer(codex, [], { env: home.env, cwd: repo });
  try {
    const init = await server.request("initialize", { clientInfo: { name: "rennet-probe", version: "0" } });
    if (!init.result) return { error: JSON.stringify(init.error ?? init) };
    server.notify("initialized");
    const params = {
      cwd: repo,
      approvalPolicy: "never",
      ephemeral: true,
      config: { projects: { [repo]: { trust_level: "untrusted" } } },
    };
    let start = await server.request("thread/start", { ...params, sandbox: "danger-full-access" });
    if (!start.result)
      start = await server.request("thread/start", { ...params, sandbox: "dangerFullAccess" });
    if (!start.result) return { error: JSON.stringify(start.error ?? start) };
    await sleep(300);
    const after = await readFile(configPath, "utf8");
    return { rewritten: after !== toml, trustedNow: /trust_level = "trusted"/.test(after) };
  } finally {
    await server.stop();
    await home.cleanup();
    await rm(repo, { recursive: true, force: true });
  }
}

function summarizeFrame(frame) {
  const params = frame.params ?? {};
  const short = {};
  for (const [key, value] of Object.entries(params)) {
    const json = JSON.stringify(value);
    short[key] = json !== undefined && json.length > 200 ? `${json.slice(0, 200)}…` : value;
  }
  return { method: frame.method, params: short };
}

async function probeAppServer(codex, env, cwd) {
  const server = startAppServer(codex, [], { env, cwd });
  const result = {};
  try {
    const init = await server.request("initialize", {
      clientInfo: { name: "rennet", title: "Rennet", version: "0.0.0" },
    });
    result.initialize = init.result
      ? { keys: Object.keys(init.result).sort(), userAgent: init.result.userAgent ?? null }
      : { error: init.error ?? init };
    server.notify("initialized");
    await sleep(500);
    result.unsolicitedAfterInitialize = server.frames
      .filter((f) => f.frame?.method !== undefined && f.frame.id === undefined)
      .map((f) => f.frame.method);
    const before = server.frames.length;
    const params = { cwd, approvalPolicy: "never", sandbox: "danger-full-access", ephemeral: true };
    let start = await server.request("thread/start", params);
    result.threadStart = {
      sandboxKebab: start.result ? "ok" : { code: start.error?.code, message: start.error?.message },
    };
    if (!start.result) {
      start = await server.request("thread/start", { ...params, sandbox: "dangerFullAccess" });
      result.threadStart.sandboxCamel = start.result
        ? "ok"
        : { code: start.error?.code, message: start.error?.message };
    }
    const threadId = start.result?.thread?.id ?? null;
    result.threadStart.resultKeys = start.result ? Object.keys(start.result).sort() : null;
    // MCP startup: wait until both enabled servers reported a final state, or 8 s
    const deadline = Date.now() + 8_000;
    while (Date.now() < deadline) {
      const text = JSON.stringify(server.frames.slice(before).map((f) => f.frame));
      const okDone =
        /probe_ok[^}]*"(ready|connected)"/.test(text) || /"server":"probe_ok"[^}]*"ready"/.test(text);
      const brokenDone = /probe_broken[^}]*"failed"/.test(text);
      if (okDone && brokenDone) break;
      await sleep(200);
    }
    await sleep(300);
    const after = server.frames
      .slice(before)
      .filter((f) => f.frame?.method !== undefined && f.frame.id === undefined);
    result.notificationsAfterThreadStart = [...new Set(after.map((f) => f.frame.method))];
    result.legacyNotifications = [
      ...new Set(after.filter((f) => f.frame.method.startsWith("codex/event/")).map((f) => f.frame.method)),
    ];
    result.mcpStartupNotifications = after
      .filter((f) => /mcp/i.test(f.frame.method))
      .map((f) => summarizeFrame(f.frame));
    if (threadId !== null) {
      const status = await server.request("mcpServerStatus/list", { threadId }, 30_000);
      result.mcpServerStatusList = status.result
        ? (status.result.data ?? []).map((s) => ({
            name: s.name,
            runtimeStatus: s.runtimeStatus,
            hasRuntimeStatus: Object.hasOwn(s, "runtimeStatus"),
            tools: Object.keys(s.tools ?? {}).length,
          }))
        : { error: status.error ?? status };
      const statusNoThread = await server.request("mcpServerStatus/list", {}, 30_000);
      result.mcpServerStatusListNoThread = statusNoThread.result
        ? (statusNoThread.result.data ?? []).map((s) => ({ name: s.name, runtimeStatus: s.runtimeStatus }))
        : { error: statusNoThread.error ?? statusNoThread };
    }
    const config = await server.request("config/read", { includeLayers: true, cwd });
    result.configRead = config.result
      ? {
          keys: Object.keys(config.result).sort(),
          layerSources: (config.result.layers ?? []).map((l) =>
            typeof l.name === "object" && l.name !== null ? l.name.type : l.name,
          ),
          mcpServers: Object.keys(config.result.config?.mcp_servers ?? {}).sort(),
        }
      : { error: config.error ?? config };
  } finally {
    const exit = await server.stop();
    result.exit = exit;
    const warnings = server.stderr
      .split("\n")
      .filter((l) => /ERROR|WARN/.test(l))
      .slice(0, 5)
      .map((l) => l.slice(0, 300));
    result.stderrWarnings = warnings;
  }
  return result;
}

function resolveTarget(arg) {
  if (VERSION_PATTERN.test(arg)) {
    const found = locate(path.join(cacheRoot(null), arg));
    if (!found.native) throw new Error(`${arg} is not installed; run scripts/compat/install-codex.js ${arg}`);
    return { label: arg, codex: found.native, launcher: found.launcher };
  }
  return { label: arg, codex: path.resolve(arg), launcher: null };
}

async function probe(target, { schemaOnly }) {
  const workDir = await mkdtemp(path.join(os.tmpdir(), "rennet-compat-probe-"));
  const mcpScript = path.join(workDir, "stdio-mcp-server.mjs");
  await writeFile(mcpScript, STDIO_MCP_SERVER, "utf8");
  await chmod(mcpScript, 0o644);
  const home = await throwAwayHome(probeConfig(mcpScript));
  const cwd = path.join(workDir, "cwd");
  await runCommand("mkdir", ["-p", cwd]);
  try {
    const out = { target: target.label, codex: target.codex };
    out.version = await probeVersion(target.codex, home.env);
    out.schema = await probeSchema(target.codex, home.env);
    if (!schemaOnly) {
      out.cli = await probeCli(target.codex, home.env, cwd);
      out.appServer = await probeAppServer(target.codex, home.env, cwd);
      out.trustRewrite = await probeTrustRewrite(target.codex);
    }
    return out;
  } finally {
    await home.cleanup();
    await rm(workDir, { recursive: true, force: true });
  }
}

async function main() {
  const args = process.argv.slice(2);
  const schemaOnly = args.includes("--schema-only");
  const targets = args.filter((a) => !a.startsWith("--"));
  if (targets.length === 0) {
    console.error("usage: node scripts/compat/capability-probe.js [--schema-only] VERSION|PATH...");
    process.exit(2);
  }
  for (const arg of targets) {
    try {
      console.log(JSON.stringify(await probe(resolveTarget(arg), { schemaOnly })));
    } catch (error) {
      console.log(
        JSON.stringify({ target: arg, error: error instanceof Error ? error.message : String(error) }),
      );
      process.exitCode = 1;
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
