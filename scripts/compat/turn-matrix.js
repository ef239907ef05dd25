#!/usr/bin/env node
// Runs real offline turns on installed codex versions and prints what the wire and the rennet CLI showed.
// Needs `npm run build` (it uses dist/testkit and bin/rennet.js) and versions from install-codex.js.
//
//   node scripts/compat/turn-matrix.js 0.72.0 0.120.0 0.148.0 0.171.0
//   node scripts/compat/turn-matrix.js --repeat 10 --only wire-command 0.130.0
//   node scripts/compat/turn-matrix.js --only trust 0.120.0 0.122.0
//   node scripts/compat/turn-matrix.js --only wire-command --command "echo a; sleep 1; echo b" 0.130.0
//   node scripts/compat/turn-matrix.js --only trust --trust-variants 1,6 0.124.0     (indexes into partTrust's list)
//
// --command CMD sets the command of wire-command and cli (default an instant printf; a command that is still
// running at codex's first poll, e.g. with `sleep`, is what makes 0.117–0.145 send item/completed late).
// Parts (--only NAME, repeatable; default all):
//   wire-text      raw JSON-RPC text turn: frame methods in order, legacy `codex/event/*` names and counts
//   wire-optout    the text turn again with `initialize.capabilities.optOutNotificationMethods` listing every
//                  `codex/event/*` name of the binary's schema (EventMsg) but the MCP startup ones
//   wire-interrupt a turn whose model never answers, interrupted after 1 s: reply and time to turn/completed
//   wire-options   a text turn with ephemeral, outputSchema, effort and summary: what reached the model request,
//                  and whether a rollout file was written under CODEX_HOME/sessions
//   wire-command   raw JSON-RPC command turn, --repeat times: tools offered to the model, the tool called,
//                  whether the command's item/completed arrived and when, relative to turn/completed
//   cli            `node bin/rennet.js codex run --json --codex-bin <launcher>` for a text and a command turn
//   trust          a git cwd, with and without a trust_level for it in CODEX_HOME/config.toml: is the file
//                  rewritten after thread/start and after a command turn, with the trust stated in the thread
//                  config, as a launch override `-c projects={…}`, both, without `sandbox`/`approvalPolicy` on
//                  thread/start, or in a plain (non-git) directory
// One JSON object per line and per version. Every codex gets a throw-away HOME and CODEX_HOME; every child is
// stopped (stdin EOF, then SIGTERM, then SIGKILL) before the next step.
import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cacheRoot, locate } from "./install-codex.js";
import { runCommand, startAppServer } from "./capability-probe.js";
import { jsonLines } from "./json-lines.js";
import { schemaFacts } from "./schema-facts.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const { createCodexHome, startLoopbackModelServer, responseEvents, modelScenarios } = await import(
  path.join(root, "dist", "testkit", "index.js")
);

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let TRUST_FILTER = null;
let COMMAND = "printf 'line1\\nline2\\n'";

/** Tool names offered in a Responses request body (function tools by name, others by type). */
function offeredTools(body) {
  const tools = Array.isArray(body?.tools) ? body.tools : [];
  return tools.map((t) => t.name ?? t.type);
}

/**
 * A command scenario that calls whichever command tool the request offers: `exec_command` (unified exec), else
 * `shell` (argv form), else `shell_command` (string form). Records which one it used.
 */
function adaptiveCommand(cmd, record) {
  return (request, scenarioIndex) => {
    const id = `resp_${request.index}`;
    if (modelScenarios.hasToolOutputSinceLastUserMessage(request)) {
      return {
        type: "stream",
        end: "close",
        events: [
          responseEvents.responseCreated(id),
          ...responseEvents.assistantMessageEvents(`msg_${request.index}`, ["command done"]),
          responseEvents.responseCompleted(id, null),
        ],
      };
    }
    const tools = offeredTools(request.body);
    let name;
    let args;
    if (tools.includes("exec_command")) {
      name = "exec_command";
      args = { cmd, yield_time_ms: 10_000 };
    } else if (tools.includes("shell")) {
      name = "shell";
      args = { command: ["bash", "-c", cmd], timeout_ms: 10_000 };
    } else {
      name = "shell_command";
      args = { command: cmd, timeout_ms: 10_000 };
    }
    record.push({ scenarioIndex, tool: name });
    return {
      type: "stream",
      end: "close",
      events: [
        responseEvents.responseCreated(id),
        responseEvents.functionCallDone(`fc_${request.index}`, `call_${request.index}`, name, args),
        responseEvents.responseCompleted(id, null),
      ],
    };
  };
}

function resolveVersion(version) {
  const found = locate(path.join(cacheRoot(null), version));
  if (!found.native)
    throw new Error(`${version} is not installed; run scripts/compat/install-codex.js ${version}`);
  return found;
}

/** thread/start with full access: kebab-case sandbox first, camelCase when the binary rejects it. */
async function startThread(server, params) {
  const first = await server.request("thread/start", { ...params, sandbox: "danger-full-access" });
  if (first.result) return { response: first, sandbox: "danger-full-access" };
  const second = await server.request("thread/start", { ...params, sandbox: "dangerFullAccess" });
  return { response: second, sandbox: "dangerFullAccess", firstError: first.error ?? first };
}

async function waitFor(predicate, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (predicate()) return true;
    await sleep(25);
  }
  return predicate();
}

/** One raw turn; returns the recorded frames (notifications with arrival ms) and the model requests. */
async function wireTurn(
  native,
  scenario,
  {
    cwd,
    lingerMs = 1_500,
    extraArgs = [],
    homeToml,
    capabilities,
    turnParams = {},
    interruptAfterMs = null,
  } = {},
) {
  const model = await startLoopbackModelServer({ scenario });
  const home = await createCodexHome({ modelUrl: model.url, ...(homeToml ? { extraToml: homeToml } : {}) });
  const ownCwd = cwd ?? (await mkdtemp(path.join(os.tmpdir(), "rennet-compat-cwd-")));
  const env = home.env({ ...process.env, HOME: home.dir });
  const server = startAppServer(native, extraArgs, { env, cwd: ownCwd });
  const out = { error: null };
  try {
    const init = await server.request("initialize", {
      clientInfo: { name: "rennet", title: "Rennet", version: "0.0.0" },
      ...(capabilities ? { capabilities } : {}),
    });
    if (!init.result) throw new Error(`initialize: ${JSON.stringify(init.error ?? init)}`);
    server.notify("initialized");
    const { response, sandbox } = await startThread(server, {
      cwd: ownCwd,
      approvalPolicy: "never",
      ephemeral: true,
    });
    if (!response.result) throw new Error(`thread/start: ${JSON.stringify(response.error ?? response)}`);
    out.sandbox = sandbox;
    const threadId = response.result.thread.id;
    const turn = await server.request("turn/start", {
      threadId,
      input: [{ type: "text", text: "go" }],
      cwd: ownCwd,
      approvalPolicy: "never",
      sandboxPolicy: { type: "dangerFullAccess" },
      ...turnParams,
    });
    if (!turn.result) throw new Error(`turn/start: ${JSON.stringify(turn.error ?? turn)}`);
    if (interruptAfterMs !== null) {
      await sleep(interruptAfterMs);
      const sentAt = server.elapsed();
      const reply = await server.request("turn/interrupt", { threadId, turnId: turn.result.turn.id });
      out.interrupt = { sentAt, reply: reply.result ?? reply.error ?? reply };
    }
    const done = await waitFor(() => server.frames.some((f) => f.frame?.method === "turn/completed"), 30_000);
    out.turnCompleted = done;
    await sleep(lingerMs);
  } catch (error) {
    out.error = error instanceof Error ? error.message : String(error);
  } finally {
    out.exit = await server.stop();
    out.frames = server.frames
      .filter((f) => f.frame?.method !== undefined && f.frame.id === undefined)
      .map((f) => ({ at: f.at, method: f.frame.method, params: f.frame.params }));
    out.requests = model.responsesRequests().map((r) => ({
      tools: offeredTools(r.body),
      reasoning: r.body?.reasoning ?? null,
      text: r.body?.text ?? null,
    }));
    out.interrupt ??= null;
    out.sessionFiles = await listFiles(path.join(home.dir, "sessions"));
    out.stderrTail = server.stderr.split("\n").slice(-5).join("\n");
    await model.close();
    await home.cleanup();
    if (!cwd) await rm(ownCwd, { recursive: true, force: true });
  }
  return out;
}

async function listFiles(dir) {
  const { readdir } = await import("node:fs/promises");
  try {
    const entries = await readdir(dir, { recursive: true, withFileTypes: true });
    return entries.filter((e) => e.isFile()).map((e) => e.name);
  } catch {
    return [];
  }
}

/** A turn whose model stream never ends, interrupted 1 s after turn/start: reply and time to turn/completed. */
async function partWireInterrupt(native) {
  const t = await wireTurn(native, modelScenarios.hang(), { interruptAfterMs: 1_000, lingerMs: 300 });
  const completed = t.frames.find((f) => f.method === "turn/completed");
  return {
    error: t.error,
    reply: t.interrupt?.reply ?? null,
    status: completed?.params?.turn?.status ?? null,
    msToTurnCompleted: completed && t.interrupt ? completed.at - t.interrupt.sentAt : null,
    legacyAbort: t.frames.some((f) => f.method === "codex/event/turn_aborted"),
  };
}

/**
 * A text turn with `ephemeral:true` on thread/start and `outputSchema`, `effort:"low"`, `summary:"detailed"` on
 * turn/start: did the options reach the model request (`text.format`, `reasoning`), and was a rollout file
 * written under CODEX_HOME/sessions anyway?
 */
async function partWireOptions(native) {
  const schema = {
    type: "object",
    properties: { answer: { type: "string" } },
    required: ["answer"],
    additionalProperties: false,
  };
  const t = await wireTurn(native, modelScenarios.json({ answer: "ok" }), {
    turnParams: { outputSchema: schema, effort: "low", summary: "detailed" },
  });
  const request = t.requests[0] ?? null;
  return {
    error: t.error,
    status: t.frames.find((f) => f.method === "turn/completed")?.params?.turn?.status ?? null,
    textFormatType: request?.text?.format?.type ?? null,
    reasoning: request?.reasoning ?? null,
    rolloutFiles: t.sessionFiles,
  };
}

function countBy(list) {
  const counts = {};
  for (const x of list) counts[x] = (counts[x] ?? 0) + 1;
  return counts;
}

async function partWireText(native) {
  const t = await wireTurn(native, modelScenarios.text("Hello from the loopback model.", { chunks: 3 }));
  const methods = t.frames.map((f) => f.method);
  const turnCompletedAt = t.frames.find((f) => f.method === "turn/completed")?.at ?? null;
  const turnStartedAt = t.frames.find((f) => f.method === "turn/started")?.at ?? null;
  const legacy = methods.filter((m) => m.startsWith("codex/event/"));
  const inTurn = t.frames.filter(
    (f) =>
      turnStartedAt !== null &&
      f.at >= turnStartedAt &&
      (turnCompletedAt === null || f.at <= turnCompletedAt),
  );
  return {
    error: t.error,
    sandbox: t.sandbox,
    completed: t.turnCompleted,
    status: t.frames.find((f) => f.method === "turn/completed")?.params?.turn?.status ?? null,
    v2Methods: [...new Set(methods.filter((m) => !m.startsWith("codex/event/")))],
    legacyCountInTurn: inTurn.filter((f) => f.method.startsWith("codex/event/")).length,
    legacyCountTotal: legacy.length,
    legacyNames: countBy(legacy),
    toolsOffered: t.requests[0]?.tools ?? null,
  };
}

async function partWireCommand(native, repeat) {
  const runs = [];
  for (let i = 0; i < repeat; i++) {
    const record = [];
    const t = await wireTurn(native, adaptiveCommand(COMMAND, record));
    const completed = t.frames.find((f) => f.method === "turn/completed");
    const cmdStarted = t.frames.find(
      (f) => f.method === "item/started" && f.params?.item?.type === "commandExecution",
    );
    const cmdCompleted = t.frames.find(
      (f) => f.method === "item/completed" && f.params?.item?.type === "commandExecution",
    );
    const legacyEnd = t.frames.find((f) => f.method === "codex/event/exec_command_end");
    runs.push({
      error: t.error,
      toolCalled: record[0]?.tool ?? null,
      modelRequests: t.requests.length,
      turnStatus: completed?.params?.turn?.status ?? null,
      itemStarted: Boolean(cmdStarted),
      itemCompleted: Boolean(cmdCompleted),
      itemCompletedMinusTurnCompletedMs: cmdCompleted && completed ? cmdCompleted.at - completed.at : null,
      itemStatus: cmdCompleted?.params?.item?.status ?? null,
      exitCode: cmdCompleted?.params?.item?.exitCode ?? null,
      aggregatedOutput: cmdCompleted?.params?.item?.aggregatedOutput ?? null,
      legacyExecEndMinusTurnCompletedMs: legacyEnd && completed ? legacyEnd.at - completed.at : null,
      tail: t.frames
        .filter((f) => !f.method.startsWith("codex/event/") && !/delta/i.test(f.method))
        .slice(-8)
        .map((f) => `${f.at} ${f.method}${f.params?.item?.type ? `:${f.params.item.type}` : ""}`),
    });
  }
  return {
    toolsOffered: null,
    runs: runs.length,
    itemCompletedCount: runs.filter((r) => r.itemCompleted).length,
    itemCompletedAfterTurnCompleted: runs.filter((r) => (r.itemCompletedMinusTurnCompletedMs ?? -1) > 0)
      .length,
    detail: runs,
  };
}

/** The `codex/event/<type>` names the binary's schema lists (its `EventMsg` union); empty when it has none. */
async function legacyMethodNames(native) {
  const dir = await mkdtemp(path.join(os.tmpdir(), "rennet-compat-schema-"));
  try {
    await runCommand(native, ["app-server", "generate-json-schema", "--out", dir], {
      env: { ...process.env, HOME: dir, CODEX_HOME: dir },
    });
    const bundle = JSON.parse(
      await readFile(path.join(dir, "codex_app_server_protocol.schemas.json"), "utf8"),
    );
    return (schemaFacts(bundle).legacyEventMsg?.types ?? []).map((t) => `codex/event/${t}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A text turn whose `initialize` sends `capabilities.optOutNotificationMethods` = every legacy name from the
 * schema except the MCP startup ones (which are the only MCP startup report before `mcpServer/startupStatus/updated`).
 */
async function partWireOptOut(native) {
  const names = (await legacyMethodNames(native)).filter((m) => !m.includes("mcp_startup"));
  const t = await wireTurn(native, modelScenarios.text("Hello from the loopback model.", { chunks: 3 }), {
    capabilities: { optOutNotificationMethods: names },
  });
  const methods = t.frames.map((f) => f.method);
  return {
    error: t.error,
    optedOut: names.length,
    status: t.frames.find((f) => f.method === "turn/completed")?.params?.turn?.status ?? null,
    legacyLeft: countBy(methods.filter((m) => m.startsWith("codex/event/"))),
    v2Count: methods.filter((m) => !m.startsWith("codex/event/")).length,
  };
}

/** `rennet codex run --json` with the launcher and a loopback model; returns exit code and event summary. */
async function cliTurn(launcher, scenario, prompt) {
  const model = await startLoopbackModelServer({ scenario });
  const home = await createCodexHome({ modelUrl: model.url });
  const cwd = await mkdtemp(path.join(os.tmpdir(), "rennet-compat-cwd-"));
  try {
    const env = home.env({ ...process.env, HOME: home.dir });
    const r = await runCommand(
      process.execPath,
      [
        path.join(root, "bin", "rennet.js"),
        "codex",
        "run",
        "--json",
        "--codex-bin",
        launcher,
        "--cwd",
        cwd,
        prompt,
      ],
      { env, timeoutMs: 90_000 },
    );
    const events = jsonLines(r.stdout);
    const terminal = events.find((e) => e.type === "terminal") ?? null;
    const passthrough = events.filter((e) => e.type === "passthrough");
    return {
      exit: r.code,
      timedOut: r.timedOut,
      types: countBy(events.map((e) => e.type)),
      outcome: terminal?.outcome ?? null,
      failure: terminal?.failure
        ? { source: terminal.failure.source, message: terminal.failure.message }
        : null,
      finalMessage: terminal?.finalMessage ?? null,
      toolCompleted: events.some((e) => e.type === "tool.completed"),
      passthroughMethods: countBy(passthrough.map((e) => e.native?.method ?? "?")),
      stderrTail: r.stderr.split("\n").filter(Boolean).slice(-3).join(" | ").slice(0, 600),
    };
  } finally {
    await model.close();
    await home.cleanup();
    await rm(cwd, { recursive: true, force: true });
  }
}

async function partCli(launcher) {
  return {
    text: await cliTurn(launcher, modelScenarios.text("Hello from the loopback model."), "say hello"),
    command: await cliTurn(
      launcher,
      modelScenarios.command(COMMAND, { then: "done", yieldTimeMs: 10_000 }),
      "run it",
    ),
  };
}

async function gitRepo() {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), "rennet-compat-repo-")));
  await runCommand("git", ["init", "-q", dir]);
  return dir;
}

/**
 * One trust variant in a fresh git repository: `entry` is the trust level written into CODEX_HOME/config.toml
 * for the repository (or null for none); `threadConfig` states `level` in the thread/start `config`;
 * `launchOverride` passes `-c projects={"<cwd>"={trust_level="<level>"}}` to app-server; `threadSandbox` false
 * leaves `sandbox` out of thread/start (full access then comes only from turn/start's `sandboxPolicy`),
 * `threadApproval` false leaves `approvalPolicy` out too, `launchPolicy` passes both as `-c` launch overrides;
 * `git` false uses a plain directory instead of a repository.
 * Reports whether config.toml changed after thread/start and after the turn, and whether the turn's command
 * could write outside the workspace (full access really applied).
 */
async function trustVariant(native, variant) {
  const {
    entry,
    level,
    threadConfig,
    launchOverride,
    threadSandbox,
    threadApproval = true,
    launchPolicy = false,
    git = true,
  } = variant;
  const cwd = git
    ? await gitRepo()
    : await realpath(await mkdtemp(path.join(os.tmpdir(), "rennet-compat-plain-")));
  const outside = await mkdtemp(path.join(os.tmpdir(), "rennet-compat-outside-"));
  const probeFile = path.join(outside, "written");
  const record = [];
  const model = await startLoopbackModelServer({ scenario: adaptiveCommand(`touch ${probeFile}`, record) });
  const home = await createCodexHome({
    modelUrl: model.url,
    ...(entry ? { extraToml: { projects: { [cwd]: { trust_level: entry } } } } : {}),
  });
  const env = home.env({ ...process.env, HOME: home.dir });
  const args = launchOverride ? ["-c", `projects={${JSON.stringify(cwd)}={trust_level="${level}"}}`] : [];
  if (launchPolicy) args.push("-c", 'approval_policy="never"', "-c", 'sandbox_mode="danger-full-access"');
  const server = startAppServer(native, args, { env, cwd });
  const before = await readFile(home.configPath, "utf8");
  const out = { variant, error: null };
  try {
    const init = await server.request("initialize", { clientInfo: { name: "rennet", version: "0.0.0" } });
    if (!init.result) throw new Error(`initialize: ${JSON.stringify(init.error ?? init)}`);
    server.notify("initialized");
    const params = { cwd, ephemeral: true };
    if (threadApproval) params.approvalPolicy = "never";
    if (threadConfig) params.config = { projects: { [cwd]: { trust_level: level } } };
    let response;
    if (typeof threadSandbox === "string") {
      response = await server.request("thread/start", { ...params, sandbox: threadSandbox });
    } else if (threadSandbox) ({ response } = await startThread(server, params));
    else response = await server.request("thread/start", params);
    if (!response.result) throw new Error(`thread/start: ${JSON.stringify(response.error ?? response)}`);
    out.threadSandbox = response.result.sandbox ?? null;
    await sleep(500);
    const afterStart = await readFile(home.configPath, "utf8");
    out.changedAfterThreadStart = afterStart !== before;
    await server.request("turn/start", {
      threadId: response.result.thread.id,
      input: [{ type: "text", text: "hi" }],
      approvalPolicy: "never",
      sandboxPolicy: { type: "dangerFullAccess" },
    });
    out.turnCompleted = await waitFor(
      () => server.frames.some((f) => f.frame?.method === "turn/completed"),
      30_000,
    );
    await sleep(300);
    out.fullAccessApplied = await readFile(probeFile).then(
      () => true,
      () => false,
    );
  } catch (error) {
    out.error = error instanceof Error ? error.message : String(error);
  } finally {
    await server.stop();
    const after = await readFile(home.configPath, "utf8");
    out.changedAtEnd = after !== before;
    if (after !== before) {
      const beforeLines = new Set(before.split("\n"));
      out.addedLines = after.split("\n").filter((l) => !beforeLines.has(l));
      const afterLines = new Set(after.split("\n"));
      out.removedLines = before.split("\n").filter((l) => !afterLines.has(l));
    }
    await model.close();
    await home.cleanup();
    await rm(cwd, { recursive: true, force: true });
    await rm(outside, { recursive: true, force: true });
  }
  return out;
}

async function partTrust(native) {
  const base = {
    entry: "untrusted",
    level: "untrusted",
    threadConfig: false,
    launchOverride: false,
    threadSandbox: true,
  };
  const variants = [
    base,
    { ...base, threadConfig: true },
    { ...base, launchOverride: true },
    { ...base, threadConfig: true, launchOverride: true },
    { ...base, threadConfig: true, threadSandbox: false },
    { ...base, entry: null, level: "trusted", threadConfig: false },
    { ...base, entry: null, level: "trusted", threadConfig: true },
    { ...base, entry: null, level: "untrusted", threadConfig: true },
    { ...base, threadConfig: true, threadSandbox: false, threadApproval: false },
    { ...base, threadConfig: true, threadSandbox: false, threadApproval: false, launchPolicy: true },
    { ...base, level: "trusted", threadConfig: true },
    { ...base, git: false },
    // 12–15: the thread starts read-only (full access comes with turn/start's sandboxPolicy): 0.120–0.124
    // persist trust when the thread's requested or effective sandbox can write the project
    { ...base, threadConfig: true, threadSandbox: "read-only" },
    { ...base, entry: null, level: "untrusted", threadConfig: true, threadSandbox: "read-only" },
    { ...base, threadConfig: true, launchOverride: true, threadSandbox: "read-only" },
    { ...base, entry: "trusted", level: "trusted", threadConfig: true },
  ];
  const out = [];
  for (const v of variants) {
    if (TRUST_FILTER === null || TRUST_FILTER.includes(variants.indexOf(v)))
      out.push(await trustVariant(native, v));
  }
  return out;
}

async function main() {
  const argv = process.argv.slice(2);
  const only = new Set();
  let repeat = 3;
  const versions = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === "--only") only.add(argv[++i]);
    else if (argv[i] === "--repeat") repeat = Number(argv[++i]);
    else if (argv[i] === "--command") COMMAND = argv[++i];
    else if (argv[i] === "--trust-variants") TRUST_FILTER = argv[++i].split(",").map(Number);
    else versions.push(argv[i]);
  }
  const want = (name) => only.size === 0 || only.has(name);
  for (const version of versions) {
    const found = resolveVersion(version);
    const out = { version };
    if (want("wire-text")) out.wireText = await partWireText(found.native);
    if (want("wire-interrupt")) out.wireInterrupt = await partWireInterrupt(found.native);
    if (want("wire-options")) out.wireOptions = await partWireOptions(found.native);
    if (want("wire-optout")) out.wireOptOut = await partWireOptOut(found.native);
    if (want("wire-command")) out.wireCommand = await partWireCommand(found.native, repeat);
    if (want("cli")) out.cli = await partCli(found.launcher);
    if (want("trust")) out.trust = await partTrust(found.native);
    console.log(JSON.stringify(out));
  }
}

await main();
