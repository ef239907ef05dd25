/**
 * `createClaudeCode()` against the real claude, offline: a loopback Messages API, a throw-away HOME, and
 * `IS_SANDBOX=1` in the call's env only (Claude refuses bypassPermissions as root without it).
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createClaudeCode } from "../../../src/claude/client/claude-client.js";
import { TurnFailedError } from "../../../src/harness/errors.js";
import * as scenarios from "../../../src/testkit/messages-scenarios.js";
import { messagesUsage } from "../../../src/testkit/messages-stream-events.js";
import { TEST_CLAUDE_BIN } from "../../helpers/claude-bin.js";
import {
  ClaudeSetups,
  collect,
  ofType,
  processesWith,
  rennetTmpDirs,
  transcripts,
  claudeUnderTest,
} from "./claude-helpers.js";

const setups = new ClaudeSetups();
const claude = claudeUnderTest();
afterEach(() => setups.dispose());

describe("real claude through createClaudeCode()", () => {
  it("streams a text turn to a completed terminal; no transcript, no temporary directory left", async () => {
    const s = await setups.create(scenarios.text("Hello from the loopback model"));
    const session = s.claude.runStreamed({ prompt: "Say hello", cwd: s.cwd, env: s.callEnv });
    const events = await collect(session.events);
    const terminal = await session.result;
    expect(terminal, JSON.stringify(terminal.failure)).toMatchObject({
      outcome: "completed",
      finalMessage: "Hello from the loopback model",
      trust: { level: "untrusted", source: "default" },
    });
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events.filter((e) => e.type === "terminal")).toHaveLength(1);
    const started = ofType(events, "session.started")[0];
    expect(started).toMatchObject({ harness: "claude-code", cwd: s.cwd, threadId: terminal.threadId });
    expect(
      ofType(events, "text.delta")
        .map((e) => e.text)
        .join(""),
    ).toBe("Hello from the loopback model");
    expect(terminal.usage?.costUsd).toBeGreaterThan(0);
    expect(processesWith(String(started?.pid))).toEqual([]);
    expect(await transcripts(s.home)).toEqual([]);
    expect(await rennetTmpDirs(s.home)).toEqual([]);
  });

  it("pairs a Bash command's tool events with its output and exit status", async () => {
    const s = await setups.create(scenarios.bash("echo from-bash; exit 3", { then: "ran it" }));
    const session = s.claude.runStreamed({ prompt: "Run it", cwd: s.cwd, env: s.callEnv });
    const all = await collect(session.events);
    const started = ofType(all, "tool.started");
    const completed = ofType(all, "tool.completed");
    expect(ofType(all, "terminal")[0]?.outcome).toBe("completed");
    expect(started).toEqual([expect.objectContaining({ tool: "command", title: "echo from-bash; exit 3" })]);
    expect(completed).toEqual([
      expect.objectContaining({ itemId: started[0]?.itemId, tool: "command", exitCode: 3 }),
    ]);
    expect(JSON.stringify(completed[0]?.item)).toContain("from-bash");
    // the tool's events come between the turn's start and its terminal frame, in order
    const seqs = [started[0]?.seq ?? 0, completed[0]?.seq ?? 0];
    expect(seqs[0]).toBeLessThan(seqs[1] ?? 0);
  });

  it("reports a file edit as file.changed", async () => {
    // Read first: up to 2.1.112 (at least) Claude refuses an Edit of a file it has not read in the session
    const file = (cwd: string): string => path.join(cwd, "notes.txt");
    const s = await setups.create(
      scenarios.toolUses(
        [
          { name: "Read", input: (cwd) => ({ file_path: file(cwd) }) },
          {
            name: "Edit",
            input: (cwd) => ({ file_path: file(cwd), old_string: "beta", new_string: "BETA" }),
          },
        ],
        { then: "edited" },
      ),
    );
    await writeFile(path.join(s.cwd, "notes.txt"), "alpha\nbeta\ngamma\n");
    const events = await collect(
      s.claude.runStreamed({ prompt: "Edit it", cwd: s.cwd, env: s.callEnv }).events,
    );
    expect(ofType(events, "terminal")[0]?.outcome).toBe("completed");
    expect(await readFile(path.join(s.cwd, "notes.txt"), "utf8")).toBe("alpha\nBETA\ngamma\n");
    const changed = ofType(events, "file.changed");
    expect(changed.length).toBeGreaterThan(0);
    expect(JSON.stringify(changed)).toContain("notes.txt");
  });

  it("answers a utility call with the structured output, validated", async () => {
    const s = await setups.create(scenarios.structuredOutput({ answer: 42, ok: true }));
    const schema = {
      type: "object",
      properties: { answer: { type: "number" }, ok: { type: "boolean" } },
      required: ["answer", "ok"],
    } as const;
    const result = await s.claude.utility({ prompt: "Answer", cwd: s.cwd, env: s.callEnv, schema });
    expect(result.value).toEqual({ answer: 42, ok: true });
    expect(result.terminal.structuredOutput).toEqual({ answer: 42, ok: true });
  });

  it("answers a utility call whose schema declares $schema 2020-12 (Claude's own validator knows draft-07 only)", async () => {
    const s = await setups.create(scenarios.structuredOutput({ answer: "x" }));
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { answer: { $ref: "#/$defs/Answer" } },
      required: ["answer"],
      $defs: { Answer: { type: "string" } },
    } as const;
    const result = await s.claude
      .utility({ prompt: "Answer", cwd: s.cwd, env: s.callEnv, schema })
      .catch((e: unknown) => e);
    expect(result).toMatchObject({ value: { answer: "x" } });
  });

  it("answers a utility call whose schema root is a $ref to an object definition, as Codex's does", async () => {
    const s = await setups.create(scenarios.structuredOutput({ answer: "x" }));
    const schema = {
      $schema: "http://json-schema.org/draft-07/schema#",
      $ref: "#/definitions/Reply",
      definitions: {
        Reply: { type: "object", properties: { answer: { type: "string" } }, required: ["answer"] },
      },
    } as const;
    const result = await s.claude
      .utility({ prompt: "Answer", cwd: s.cwd, env: s.callEnv, schema })
      .catch((e: unknown) => e);
    expect(result).toMatchObject({ value: { answer: "x" } });
    // the Messages API takes a tool's input schema only with type "object" at its root
    const tools = (
      s.model.messagesRequests()[0]?.body as { tools?: { name: string; input_schema: unknown }[] }
    ).tools;
    const tool = tools?.find((t) => t.name === "StructuredOutput");
    expect(tool?.input_schema).toMatchObject({ type: "object", properties: { answer: { type: "string" } } });
  });

  it("fails a utility call whose model never calls StructuredOutput", async () => {
    const s = await setups.create(scenarios.text("no structure here"));
    const schema = { type: "object", properties: { a: { type: "string" } }, required: ["a"] } as const;
    const error = await s.claude
      .utility({ prompt: "Answer", cwd: s.cwd, env: s.callEnv, schema })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TurnFailedError);
    expect((error as TurnFailedError).terminal.failure?.source).toBe("parse");
  });

  it("cancels a running Bash command with the interrupt: nothing of its tree (a setsid grandchild too) survives", async () => {
    const marker = `${4000 + Math.floor(Math.random() * 900)}`;
    const s = await setups.create(
      scenarios.bash(`echo started; setsid sleep ${marker}1 & sleep ${marker}2`, { then: "never" }),
    );
    const session = s.claude.runStreamed({ prompt: "Run it", cwd: s.cwd, env: s.callEnv });
    const events = [];
    for await (const event of session.events) {
      events.push(event);
      if (event.type === "tool.started") {
        const until = Date.now() + 10_000;
        while (processesWith(`sleep ${marker}1`).length === 0 && Date.now() < until)
          await new Promise((r) => setTimeout(r, 50));
        session.cancel("enough");
      }
    }
    const terminal = await session.result;
    expect(terminal.outcome).toBe("cancelled");
    expect(terminal.cancellation).toEqual({ via: "interrupted", reason: "enough" });
    const tool = ofType(events, "tool.completed");
    expect(tool).toHaveLength(1);
    expect(processesWith(`sleep ${marker}`)).toEqual([]);
  });

  it("a turn Claude stops at its budget reports the tokens it spent, not the result's zeros", async () => {
    const s = await setups.create(
      scenarios.bash("echo hi", { then: "never", usage: messagesUsage(100_000, 10) }),
    );
    const terminal = await s.claude.runStreamed({
      prompt: "hi",
      cwd: s.cwd,
      env: s.callEnv,
      limits: { maxCostUsd: 0.01 },
    }).result;
    expect(terminal.cancellation).toMatchObject({ reason: "limit", limit: { name: "maxCostUsd" } });
    expect(terminal.usage).toMatchObject({ inputTokens: 100_000, outputTokens: 10, totalTokens: 100_010 });
    expect(terminal.usage?.costUsd).toBeGreaterThan(0.01);
  });

  it("cancels before the turn exists by killing at once", async () => {
    const s = await setups.create(scenarios.text("late"));
    const session = s.claude.runStreamed({ prompt: "hi", cwd: s.cwd, env: s.callEnv });
    setTimeout(() => session.cancel("now"), 50);
    const terminal = await session.result;
    expect(terminal).toMatchObject({
      outcome: "cancelled",
      cancellation: { via: "before-turn", reason: "now" },
    });
  });

  it("keeps a thread on request and resumes it in a fresh child (2.1 or newer)", async (context) => {
    // releases before 2.1 send warm-up model requests a scripted sequence cannot tell from the turn's own
    if (/^2\.0\./.test(claude.capabilities().version ?? "")) context.skip();
    const s = await setups.create(
      scenarios.sequence([scenarios.text("first answer"), scenarios.text("second answer")]),
    );
    const first = await s.claude.run({
      prompt: "remember FIRST-PROMPT",
      cwd: s.cwd,
      env: s.callEnv,
      keepThread: true,
    });
    expect(first.threadId).toMatch(/^[0-9a-f-]{36}$/);
    // the kept session's transcript (releases before 2.1 also keep their warm-up sessions)
    expect((await transcripts(s.home)).some((name) => name.includes(first.threadId!))).toBe(true);
    const second = await s.claude.run({
      prompt: "and now",
      cwd: s.cwd,
      env: s.callEnv,
      // in upper case: Claude Code finds a transcript by its lower-case id, which Rennet passes
      resume: first.threadId!.toUpperCase(),
    });
    expect(second.finalMessage).toBe("second answer");
    expect(second.threadId).toBe(first.threadId);
    const lastRequest = s.model.messagesRequests().at(-1);
    expect(JSON.stringify(lastRequest?.body)).toContain("FIRST-PROMPT");
  });

  it("without a claude option, discovery finds RENNET_CLAUDE_BIN and the turn runs", async () => {
    const s = await setups.create(scenarios.text("found by discovery"));
    const claude = createClaudeCode({
      env: { ...s.home.env(), RENNET_CLAUDE_BIN: TEST_CLAUDE_BIN, RENNET_STATE_DIR: s.home.dir },
    });
    const result = await claude.run({ prompt: "hi", cwd: s.cwd, env: s.callEnv });
    expect(result.finalMessage).toBe("found by discovery");
  });

  it("fails before spawning when the claude path does not exist", async () => {
    const claude = createClaudeCode({ claude: "/nonexistent/claude" });
    const terminal = await claude.runStreamed({ prompt: "hi", env: { IS_SANDBOX: "1" } }).result;
    expect(terminal.failure).toMatchObject({ source: "spawn", code: "CLAUDE_UNAVAILABLE" });
    expect(terminal.failure?.message).toContain("/nonexistent/claude");
  });

  it("effort on a release without --effort (before 2.1.38) is refused before claude starts, naming the version", async (context) => {
    if (claude.capabilities().effort) context.skip();
    const s = await setups.create(scenarios.text("never"));
    const terminal = await s.claude.runStreamed({ prompt: "hi", cwd: s.cwd, env: s.callEnv, effort: "high" })
      .result;
    expect(terminal.failure).toMatchObject({ source: "spawn", code: "CLAUDE_UNSUPPORTED_VERSION" });
    expect(terminal.failure?.message).toContain(
      `Claude Code ${claude.capabilities().version} cannot do --effort, which needs 2.1.38 or newer`,
    );
    expect(s.model.messagesRequests()).toEqual([]);
  });

  it.runIf(process.getuid?.() === 0)(
    "refuses bypass as root without IS_SANDBOX=1, naming the fix",
    async () => {
      const s = await setups.create(scenarios.text("never"));
      const terminal = await s.claude.runStreamed({ prompt: "hi", cwd: s.cwd }).result;
      expect(terminal.failure).toMatchObject({ source: "spawn", code: "CLAUDE_BYPASS_REFUSED" });
      expect(terminal.failure?.message).toContain("IS_SANDBOX=1");
      expect(s.model.messagesRequests()).toEqual([]);
    },
  );
});
