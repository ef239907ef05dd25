#!/usr/bin/env node
// Runs Rennet's own CLI (bin/rennet.js, needs `npm run build`) against installed codex versions, offline, and
// prints one JSON line per version and part. Every run gets a throw-away HOME/CODEX_HOME whose config.toml
// configures a working stdio MCP server (`user_stdio`) and a disabled one (`user_off`), and the testkit's
// loopback model.
//
//   node scripts/compat/product-check.js 0.72.0 0.100.0 0.171.0
//   node scripts/compat/product-check.js --only isolation 0.100.0 0.130.0 0.148.0 0.171.0
//
// Parts (--only NAME, repeatable; default all):
//   mcp-none   `rennet codex run --json --mcp-none --codex-bin <launcher> "say hello"`: exit code, outcome,
//              event kinds, and whether any MCP tool reached the model request (it must not)
//   isolation  `rennet codex mcp-isolation --json --codex-bin <launcher>`: exit code, verdict per run and
//              server, and what the report says cannot be proven
//   drift      `RENNET_CODEX_BIN=<launcher> rennet codex doctor --json`: discovery's verdict (too old?) and
//              the schema drift rows that are not ok
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cacheRoot, locate } from "./install-codex.js";
import { runCommand, STDIO_MCP_SERVER } from "./capability-probe.js";
import { jsonLines } from "./json-lines.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const { createCodexHome, startLoopbackModelServer, modelScenarios } = await import(
  path.join(root, "dist", "testkit", "index.js")
);

function countBy(values) {
  const out = {};
  for (const v of values) out[v] = (out[v] ?? 0) + 1;
  return out;
}

/** A loopback model, a throw-away home with two configured stdio MCP servers, and a cwd. */
async function world(scenario) {
  const model = await startLoopbackModelServer({ scenario });
  const work = await mkdtemp(path.join(os.tmpdir(), "rennet-compat-work-"));
  const script = path.join(work, "stdio-mcp-server.mjs");
  await writeFile(script, STDIO_MCP_SERVER, "utf8");
  const home = await createCodexHome({
    modelUrl: model.url,
    extraToml: {
      mcp_servers: {
        user_stdio: { command: process.execPath, args: [script], startup_timeout_sec: 10 },
        user_off: { command: process.execPath, args: [script], enabled: false },
      },
    },
  });
  const cwd = await mkdtemp(path.join(os.tmpdir(), "rennet-compat-cwd-"));
  return {
    model,
    cwd,
    env: home.env({ ...process.env, HOME: home.dir }),
    async dispose() {
      await model.close();
      await home.cleanup();
      await rm(cwd, { recursive: true, force: true });
      await rm(work, { recursive: true, force: true });
    },
  };
}

function rennet(args, { env, cwd }) {
  return runCommand(process.execPath, [path.join(root, "bin", "rennet.js"), ...args], {
    env,
    cwd,
    timeoutMs: 180_000,
  });
}

async function partMcpNone(launcher) {
  const w = await world(modelScenarios.text("Hello from the loopback model."));
  try {
    const r = await rennet(
      ["codex", "run", "--json", "--mcp-none", "--codex-bin", launcher, "--cwd", w.cwd, "say hello"],
      w,
    );
    const events = jsonLines(r.stdout);
    const terminal = events.find((e) => e.type === "terminal") ?? null;
    const tools = w.model
      .responsesRequests()
      .flatMap((req) => (Array.isArray(req.body?.tools) ? req.body.tools : []))
      .map((t) => t.name ?? t.type);
    return {
      exit: r.code,
      outcome: terminal?.outcome ?? null,
      failure: terminal?.failure ? { code: terminal.failure.code, message: terminal.failure.message } : null,
      types: countBy(events.map((e) => e.type)),
      legacyNative: events.filter((e) => e.type === "native" && e.legacy === true).length,
      modelRequests: w.model.responsesRequests().length,
      mcpToolsOffered: tools.filter((n) => typeof n === "string" && n.startsWith("mcp__")),
      stderrTail: r.stderr.split("\n").filter(Boolean).slice(-2).join(" | ").slice(0, 400),
    };
  } finally {
    await w.dispose();
  }
}

async function partIsolation(launcher) {
  const w = await world(modelScenarios.text("unused"));
  try {
    const r = await rennet(["codex", "mcp-isolation", "--json", "--codex-bin", launcher], w);
    let report = null;
    try {
      report = JSON.parse(r.stdout);
    } catch {
      // reported below
    }
    return {
      exit: r.code,
      ok: report?.ok ?? null,
      verdict: report?.verdict ?? null,
      unproven: (report?.runs ?? []).map((run) => run.unproven).filter(Boolean),
      inventoryError: report?.inventoryError ?? null,
      runs: (report?.runs ?? []).map((run) => ({
        policy: run.policy,
        ok: run.ok,
        error: run.error,
        servers: run.servers.map(
          (s) => `${s.name}:${s.verdict}:${s.configEnabled}:${s.runtimeStatus ?? "-"}:${s.startup ?? "-"}`,
        ),
      })),
      stderrTail: r.stderr.split("\n").filter(Boolean).slice(-2).join(" | ").slice(0, 400),
    };
  } finally {
    await w.dispose();
  }
}

async function partDrift(launcher) {
  const w = await world(modelScenarios.text("unused"));
  try {
    const env = { ...w.env, RENNET_CODEX_BIN: launcher, RENNET_STATE_DIR: path.join(w.cwd, "state") };
    const r = await rennet(["codex", "doctor", "--json"], { env, cwd: w.cwd });
    let report = null;
    try {
      report = JSON.parse(r.stdout);
    } catch {
      // reported below
    }
    const comparison = report?.drift?.comparison ?? null;
    return {
      exit: r.code,
      available: report?.available ?? null,
      code: report?.code ?? null,
      reason: report?.available ? null : (report?.reason ?? null),
      driftOk: comparison?.ok ?? null,
      missing: (comparison?.rows ?? [])
        .filter((row) => row.status !== "ok")
        .map((row) => `${row.subject}:${row.status}${row.optional ? "(optional)" : ""}`),
      newNotifications: comparison?.newNotifications ?? null,
      driftError: report?.drift?.error ?? null,
    };
  } finally {
    await w.dispose();
  }
}

const PARTS = { "mcp-none": partMcpNone, isolation: partIsolation, drift: partDrift };

async function main() {
  const argv = process.argv.slice(2);
  const only = [];
  const versions = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--only") only.push(argv[++i]);
    else versions.push(argv[i]);
  }
  const parts = only.length > 0 ? only : Object.keys(PARTS);
  for (const version of versions) {
    const found = locate(path.join(cacheRoot(), version));
    if (!found.native) {
      console.log(JSON.stringify({ version, error: "not installed (scripts/compat/install-codex.js)" }));
      continue;
    }
    for (const part of parts) {
      const run = PARTS[part];
      if (!run) throw new Error(`unknown part ${part}`);
      const started = Date.now();
      const result = await run(found.launcher);
      console.log(JSON.stringify({ version, part, ...result, ms: Date.now() - started }));
    }
  }
}

await main();
