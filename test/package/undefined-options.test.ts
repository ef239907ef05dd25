/**
 * An optional option given as `undefined` is the option left out, at run time and in the types: a consumer
 * compiled with `exactOptionalPropertyTypes` forwards its own optional values (`signal: opts.signal`) as it
 * would without it (a consumer program over the built declarations, compiled with that flag on).
 */
import { mkdtempSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../helpers/codex-bin.js";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import { createCodex } from "../../src/codex/client/codex-client.js";
import { claudeSteps } from "../../src/testkit/fake-claude-steps.js";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { InMemoryClaude } from "../../src/testkit/in-memory-claude.js";

const CALL = {
  cwd: undefined,
  model: undefined,
  signal: undefined,
  timeouts: undefined,
  resume: undefined,
  images: undefined,
  mcp: undefined,
  trustProject: undefined,
  approvals: undefined,
  limits: undefined,
  tools: undefined,
};

/** A Codex and a Claude Code client whose every turn answers "ok" (fakes in memory). */
function okClients() {
  return {
    codex: createCodex({ launcher: new InMemoryAppServer({ turn: fakeSteps.textTurn("ok") }).launcher }),
    claude: createClaudeCode({
      launcher: new InMemoryClaude({ turn: claudeSteps.textTurn("ok") }).launcher,
      env: { IS_SANDBOX: "1" },
    }),
  };
}

describe("an option given as undefined", () => {
  it("is the option left out, for Codex's client, calls and conversations", async () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("ok") });
    const codex = createCodex({
      launcher: fake.launcher,
      codex: undefined,
      discovery: undefined,
      env: undefined,
      interruptGraceMs: undefined,
      reapOrphans: undefined,
    });
    const call = { ...CALL, ephemeral: undefined, reasoningSummary: undefined };
    expect((await codex.run({ prompt: "hi", ...call })).finalMessage).toBe("ok");
    const schema = { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] } as const;
    const json = new InMemoryAppServer({ turn: fakeSteps.textTurn('{"ok":true}') });
    const utility = createCodex({ launcher: json.launcher });
    expect((await utility.utility({ prompt: "hi", schema, effort: undefined, ...call })).value).toEqual({
      ok: true,
    });
    const { signal: _signal, resume: _resume, images: _images, ...kept } = CALL;
    const chat = codex.conversation({ ...kept, reasoningSummary: undefined, threadId: undefined });
    expect((await chat.run("hi", { signal: undefined, images: undefined })).finalMessage).toBe("ok");
  });

  it("is the deadline left out, for each entry of timeouts (its default, not a deadline of 0)", async () => {
    const timeouts = {
      initializeMs: undefined,
      threadStartMs: undefined,
      turnStartMs: undefined,
      turnMs: undefined,
    };
    const { codex, claude } = okClients();
    expect((await codex.run({ prompt: "hi", timeouts })).finalMessage).toBe("ok");
    expect((await claude.run({ prompt: "hi", timeouts: { turnMs: undefined } })).finalMessage).toBe("ok");
  });

  it("is the field left out, in approvals, limits and an MCP server (their defaults, no deadline of 0)", async () => {
    const nested = {
      approvals: {
        onRequest: () => "accept" as const,
        timeoutMs: undefined,
        mode: undefined,
        onUserInput: undefined,
        onElicitation: undefined,
      },
      limits: {
        maxDurationMs: undefined,
        maxTokens: undefined,
        maxToolCalls: undefined,
        maxCostUsd: undefined,
      },
    };
    const { codex, claude } = okClients();
    expect((await codex.run({ prompt: "hi", ...nested })).finalMessage).toBe("ok");
    const server = {
      name: "a",
      url: "http://127.0.0.1:9/mcp",
      bearerTokenEnvVar: undefined,
      httpHeaders: undefined,
      startupTimeoutSec: undefined,
      toolTimeoutSec: undefined,
    };
    const result = await claude.run({ prompt: "hi", ...nested, mcp: { servers: [server] } });
    expect(result.finalMessage).toBe("ok");
  });

  it("is the option left out, for Claude Code's client and calls", async () => {
    const fake = new InMemoryClaude({ turn: claudeSteps.textTurn("ok") });
    const claude = createClaudeCode({
      launcher: fake.launcher,
      env: { IS_SANDBOX: "1" },
      claude: undefined,
      interruptGraceMs: undefined,
      reapOrphans: undefined,
    });
    const result = await claude.run({
      prompt: "hi",
      ...CALL,
      effort: undefined,
      env: undefined,
      keepThread: undefined,
      maxBudgetUsd: undefined,
    });
    expect(result.finalMessage).toBe("ok");
    const { signal: _signal, resume: _resume, images: _images, ...kept } = CALL;
    const chat = claude.conversation({
      ...kept,
      effort: undefined,
      env: undefined,
      maxBudgetUsd: undefined,
      threadId: undefined,
    });
    expect((await chat.run("hi", { signal: undefined, images: undefined })).finalMessage).toBe("ok");
  });
});

const CONSUMER = `
import { createClaudeCode, createCodex } from "rennet-adapters";

type Mine = { cwd?: string; model?: string; signal?: AbortSignal; resume?: string; images?: readonly string[];
  trustProject?: boolean; codex?: string; claude?: string; env?: NodeJS.ProcessEnv; threadId?: string };

export async function forward(o: Mine): Promise<void> {
  const call = { cwd: o.cwd, model: o.model, signal: o.signal, resume: o.resume, images: o.images,
    trustProject: o.trustProject };
  const codex = createCodex({ codex: o.codex, env: o.env });
  await codex.run({ prompt: "hi", ...call });
  codex.runStreamed({ prompt: "hi", ...call });
  await codex.utility({ prompt: "hi", schema: { type: "object" }, ...call });
  await codex.conversation({ cwd: o.cwd, model: o.model, threadId: o.threadId }).run("hi", { signal: o.signal });
  const claude = createClaudeCode({ claude: o.claude, env: o.env });
  await claude.run({ prompt: "hi", ...call, env: o.env });
  await claude.conversation({ cwd: o.cwd, model: o.model, threadId: o.threadId }).run("hi", { signal: o.signal });
}
`;

/** Every optional field of the nested option types and of the testkit's options, given as `undefined`. */
const NESTED = `
import { createClaudeCode, createCodex, checkProjectTrust, codexLaunchSpec, discoverCodex, runMcpIsolationCheck,
  type ApprovalOptions, type McpServerSpec, type ResolvedCodex, type TurnLimits } from "rennet-adapters";
import { createClaudeHome, createCodexHome, InMemoryAppServer, InMemoryClaude, messagesScenarios, modelScenarios,
  startLoopbackMcpServer, startLoopbackMessagesServer, startLoopbackModelServer } from "rennet-adapters/testkit";

export async function forward(codex: ResolvedCodex): Promise<void> {
  const approvals: ApprovalOptions = { onRequest: () => "accept", timeoutMs: undefined, mode: undefined,
    onUserInput: undefined, onElicitation: undefined };
  const limits: TurnLimits = { maxDurationMs: undefined, maxTokens: undefined, maxToolCalls: undefined,
    maxCostUsd: undefined };
  const server: McpServerSpec = { name: "a", url: "http://127.0.0.1:1/mcp", bearerTokenEnvVar: undefined,
    httpHeaders: undefined, startupTimeoutSec: undefined, toolTimeoutSec: undefined };
  const call = { prompt: "hi", approvals, limits, mcp: { servers: [server] } };
  await createCodex().run({ ...call, timeouts: { initializeMs: undefined, threadStartMs: undefined,
    turnStartMs: undefined, turnMs: undefined } });
  await createClaudeCode().run({ ...call, timeouts: { turnMs: undefined } });
  const discovery = { timeoutMs: undefined, mode: undefined, platform: undefined, homedir: undefined,
    arch: undefined, loginShellTimeoutMs: undefined, loginShell: undefined, cacheDir: undefined, cache: undefined,
    cacheTtlMs: undefined, systemRoot: undefined, wslExe: undefined, codexBin: undefined, launcher: undefined };
  createCodex({ discovery });
  await discoverCodex({ ...discovery, env: undefined, cwd: undefined, signal: undefined });
  const io = { env: undefined, signal: undefined, launcher: undefined };
  await checkProjectTrust({ codex, cwd: ".", ...io, trustProject: undefined, timeoutMs: undefined });
  await runMcpIsolationCheck({ codex: codex.launch, cwd: ".", ...io, requestTimeoutMs: undefined,
    statusTimeoutMs: undefined, startupQuietMs: undefined });
  codexLaunchSpec(codex.launch, [], { cwd: undefined, baseEnv: undefined, comspec: undefined });
  await startLoopbackModelServer({ scenario: undefined, maxBodyBytes: undefined });
  await startLoopbackMessagesServer({ scenario: undefined, maxBodyBytes: undefined });
  await startLoopbackMcpServer({ serverName: undefined, path: undefined,
    tools: [{ name: "t", description: undefined, inputSchema: undefined, run: () => "ok" }] });
  await createCodexHome({ modelUrl: "http://127.0.0.1:1/v1", model: undefined, extraToml: undefined,
    parentDir: undefined, modelCatalog: undefined, environmentWarnings: undefined });
  await createClaudeHome({ modelUrl: "http://127.0.0.1:1", apiKey: undefined, maxRetries: undefined,
    userSettings: undefined, parentDir: undefined });
  const text = { chunks: undefined, usage: undefined, delayMs: undefined };
  modelScenarios.text("hi", text);
  messagesScenarios.text("hi", text);
  new InMemoryAppServer({ threadId: undefined, turnId: undefined, model: undefined, replies: undefined,
    alongReply: undefined, afterInitialize: undefined, turn: undefined, onSteer: undefined, onInterrupt: undefined,
    onStdinEnd: undefined, ignoreSigterm: undefined, stderr: undefined });
  new InMemoryClaude({ version: undefined, unknownOptions: undefined, startup: undefined, turn: undefined,
    nextTurn: undefined, controlReplies: undefined, onInterrupt: undefined, onStdinEnd: undefined,
    ignoreSigterm: undefined });
}
`;

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The diagnostics of `source` compiled against the built declarations with `exactOptionalPropertyTypes`. */
function exactOptionalDiagnostics(source: string): (string | undefined)[] {
  const dir = mkdtempSync(path.join(os.tmpdir(), "rennet-undefined-options-"));
  dirs.push(dir);
  mkdirSync(path.join(dir, "node_modules", "@types"), { recursive: true });
  symlinkSync(REPO_ROOT, path.join(dir, "node_modules", "rennet-adapters"));
  symlinkSync(path.join(REPO_ROOT, "node_modules/@types/node"), path.join(dir, "node_modules/@types/node"));
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ type: "module" }));
  const file = path.join(dir, "consumer.ts");
  writeFileSync(file, source);
  const program = ts.createProgram([file], {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ["node"],
    strict: true,
    exactOptionalPropertyTypes: true,
    skipLibCheck: true,
    noEmit: true,
  });
  return ts
    .getPreEmitDiagnostics(program)
    .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n").split("\n")[0]);
}

describe("the option types, for a consumer compiled with exactOptionalPropertyTypes", () => {
  it("take an optional value forwarded as it is (T | undefined)", () => {
    expect(exactOptionalDiagnostics(CONSUMER)).toEqual([]);
  }, 60_000);

  it("take undefined in every field of the nested options (approvals, limits, timeouts, MCP servers, testkit)", () => {
    expect(exactOptionalDiagnostics(NESTED)).toEqual([]);
  }, 60_000);
});
