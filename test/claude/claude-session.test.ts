/**
 * `createClaudeCode()` against the in-memory fake claude: every line crosses the real JSON-lines framing. The
 * orderings of result / exit / output close, bad lines, unknown lines, control requests, the cancel paths and
 * the structured-output bound.
 */
import { symlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import type { HarnessEvent, TerminalEvent } from "../../src/harness/events.js";
import type { FakeClaudeScript } from "../../src/testkit/fake-claude-script.js";
import { claudeSteps, FAKE_CLAUDE_SESSION_ID } from "../../src/testkit/fake-claude-steps.js";
import { InMemoryClaude } from "../../src/testkit/in-memory-claude.js";
import { tempDir } from "../helpers/temp.js";

const ENV = { IS_SANDBOX: "1", PATH: process.env.PATH };

function start(script: FakeClaudeScript, options: { interruptGraceMs?: number } = {}) {
  const fake = new InMemoryClaude(script);
  const claude = createClaudeCode({ launcher: fake.launcher, env: ENV, ...options });
  return { fake, claude };
}

async function drain(events: AsyncIterable<HarnessEvent>): Promise<HarnessEvent[]> {
  const all: HarnessEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

function terminalOf(events: readonly HarnessEvent[]): TerminalEvent {
  const terminals = events.filter((e): e is TerminalEvent => e.type === "terminal");
  expect(terminals).toHaveLength(1);
  expect(events.at(-1)).toBe(terminals[0]);
  return terminals[0] as TerminalEvent;
}

describe("createClaudeCode().runStreamed against the fake claude", () => {
  it("writes the prompt to stdin (never argv), streams the turn, then ends the session", async () => {
    const { fake, claude } = start({ turn: claudeSteps.textTurn("hello", ["hel", "lo"]) });
    const session = claude.runStreamed({ prompt: "SECRET-PROMPT" });
    const events = await drain(session.events);
    const terminal = terminalOf(events);
    expect(terminal).toMatchObject({
      outcome: "completed",
      finalMessage: "hello",
      threadId: FAKE_CLAUDE_SESSION_ID,
    });
    expect(await session.result).toBe(terminal);
    expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i + 1));
    expect(events[0]).toMatchObject({ type: "session.started", harness: "claude-code" });
    const launch = fake.launches[0]!;
    expect(launch.spec.args.join(" ")).not.toContain("SECRET-PROMPT");
    expect(launch.spec.args).toEqual(
      expect.arrayContaining([
        "-p",
        "--input-format",
        "stream-json",
        "--permission-mode=bypassPermissions",
        "--no-session-persistence",
        "--setting-sources=user",
        "--strict-mcp-config",
        '--mcp-config={"mcpServers":{}}',
      ]),
    );
    expect(launch.spec.env?.CLAUDE_CODE_TMPDIR).toMatch(/rennet-claude-/);
    const lines = launch.peer.received;
    expect(lines[0]).toMatchObject({
      type: "user",
      message: { content: [{ type: "text", text: "SECRET-PROMPT" }] },
    });
    expect(lines.at(-1)).toMatchObject({ type: "control_request", request: { subtype: "end_session" } });
    expect(launch.terminated).toBe(true);
  });

  it("trust, keepThread, resume, model, effort and MCP servers reach the command line", async () => {
    const { fake, claude } = start({});
    await claude.run({
      prompt: "hi",
      trustProject: true,
      keepThread: true,
      resume: FAKE_CLAUDE_SESSION_ID,
      model: "claude-x",
      effort: "low",
      mcp: { servers: [{ name: "app", url: "http://127.0.0.1:9/mcp", bearerTokenEnvVar: "APP_TOKEN" }] },
    });
    const args = fake.launches[0]!.spec.args;
    expect(args).toEqual(
      expect.arrayContaining([
        "--setting-sources=user,project,local",
        `--resume=${FAKE_CLAUDE_SESSION_ID}`,
        "--model=claude-x",
        "--effort=low",
        "--strict-mcp-config",
        '--mcp-config={"mcpServers":{"app":{"type":"http","url":"http://127.0.0.1:9/mcp","headers":{"Authorization":"Bearer ${APP_TOKEN}"}}}}',
      ]),
    );
    expect(args).not.toContain("--no-session-persistence");
  });

  it("a provider error is a turn failure with Claude's message", async () => {
    const { claude } = start({
      turn: [claudeSteps.init(), ...claudeSteps.apiError(500, "API Error: 500 boom")],
    });
    const terminal = terminalOf(await drain(claude.runStreamed({ prompt: "hi" }).events));
    expect(terminal.failure).toMatchObject({ source: "turn", message: expect.stringContaining("500") });
  });

  it.each([
    ["exit 1 without a result", [claudeSteps.init(), { stderr: "boom\n" }, { exit: { code: 1 } }]],
    ["a signal without a result", [claudeSteps.init(), { exit: { signal: "SIGKILL" } }]],
    ["stdout closed, then exit", [claudeSteps.init(), { closeStdout: true as const }, { exit: { code: 2 } }]],
  ])("%s is an exit failure with the stderr tail", async (_name, turn) => {
    const { claude } = start({ turn });
    const terminal = terminalOf(await drain(claude.runStreamed({ prompt: "hi" }).events));
    expect(terminal.failure?.source).toBe("exit");
  });

  it("an exit in the middle of a line is an exit failure that names the unfinished line", async () => {
    const turn = [claudeSteps.init(), { raw: '{"type":"assistant","message":{"con' }, { exit: { code: 1 } }];
    const { claude } = start({ turn });
    const terminal = terminalOf(await drain(claude.runStreamed({ prompt: "hi" }).events));
    expect(terminal.failure?.source).toBe("exit");
    expect(terminal.failure?.message).toContain(
      'its output ended inside an unfinished line (35 bytes: {"type":"assistant","message":{"con)',
    );
  });

  it("a result followed at once by the exit completes", async () => {
    const { claude } = start({ turn: [...claudeSteps.textTurn("done"), { exit: { code: 0 } }] });
    const terminal = terminalOf(await drain(claude.runStreamed({ prompt: "hi" }).events));
    expect(terminal.outcome).toBe("completed");
  });

  it("a refusal at start (bypass as root) names the fix in the exit failure", async () => {
    const { claude } = start({
      startup: [
        {
          stderr:
            "--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons\n",
        },
        { exit: { code: 1 } },
      ],
    });
    const terminal = terminalOf(await drain(claude.runStreamed({ prompt: "hi" }).events));
    expect(terminal.failure).toMatchObject({ source: "exit", exitCode: 1 });
    expect(terminal.failure?.message).toContain("IS_SANDBOX=1");
  });

  it("a line that is not JSON ends the turn with a parse failure", async () => {
    const { claude } = start({ turn: [claudeSteps.init(), { raw: "this is not json\n" }, { hang: true }] });
    const terminal = terminalOf(await drain(claude.runStreamed({ prompt: "hi" }).events));
    expect(terminal.failure).toMatchObject({ source: "parse", line: expect.stringContaining("not json") });
  });

  it("a line longer than the 48 MiB limit ends the turn with a parse failure, not a crash", async () => {
    const huge = `{"type":"assistant","pad":"${"x".repeat(49 * 1024 * 1024)}"}\n`;
    const { claude } = start({ turn: [claudeSteps.init(), { raw: huge }, { hang: true }] });
    const terminal = terminalOf(await drain(claude.runStreamed({ prompt: "hi" }).events));
    expect(terminal.failure?.source).toBe("parse");
    expect(terminal.failure?.message.length).toBeLessThan(2000);
  });

  it("a line of an unknown type is passthrough evidence and changes nothing", async () => {
    const mystery = { type: "mystery_line", payload: [1, 2] };
    const { claude } = start({
      turn: [claudeSteps.init(), { send: mystery }, ...claudeSteps.textTurn("ok").slice(1)],
    });
    const events = await drain(claude.runStreamed({ prompt: "hi" }).events);
    expect(events).toContainEqual(
      expect.objectContaining({ type: "passthrough", reason: "unknown", native: mystery }),
    );
    expect(terminalOf(events).outcome).toBe("completed");
  });

  it("answers a control request at once and reports it", async () => {
    const ask = claudeSteps.controlRequest("req-1", {
      subtype: "can_use_tool",
      tool_name: "Bash",
      input: { command: "ls" },
      tool_use_id: "toolu_1",
    });
    const { fake, claude } = start({
      turn: [
        claudeSteps.init(),
        ask,
        { awaitControlResponse: "req-1" },
        ...claudeSteps.textTurn("ok").slice(1),
      ],
    });
    const events = await drain(claude.runStreamed({ prompt: "hi" }).events);
    expect(events).toContainEqual(expect.objectContaining({ type: "request.answered", requestId: "req-1" }));
    expect(fake.peer.linesOf("control_response")[0]).toMatchObject({
      response: { subtype: "success", request_id: "req-1", response: { behavior: "allow" } },
    });
    expect(terminalOf(events).outcome).toBe("completed");
  });
});

describe("cancelling a Claude Code turn", () => {
  it("before Claude started the turn: killed at once, no interrupt", async () => {
    const { fake, claude } = start({ turn: [{ delayMs: 10_000 }] });
    const session = claude.runStreamed({ prompt: "hi" });
    setTimeout(() => session.cancel("stop"), 20);
    const terminal = await session.result;
    expect(terminal.cancellation).toEqual({ via: "before-turn", reason: "stop" });
    // under load the cancel may come before the fake was even launched: then nothing was written at all
    const written = fake.launches.flatMap((launch) => launch.peer.linesOf("control_request"));
    expect(written.filter((l) => JSON.stringify(l).includes("interrupt"))).toEqual([]);
  });

  it("a running turn: the interrupt, then Claude's interrupted result", async () => {
    const { fake, claude } = start({ turn: [claudeSteps.init(), { delayMs: 10_000 }] });
    const session = claude.runStreamed({ prompt: "hi" });
    for await (const event of session.events) if (event.type === "turn.started") session.cancel("enough");
    const terminal = await session.result;
    expect(terminal.cancellation).toEqual({ via: "interrupted", reason: "enough" });
    expect(fake.peer.linesOf("control_request")[0]).toMatchObject({ request: { subtype: "interrupt" } });
  });

  it("an interrupt Claude never answers: killed after the grace", async () => {
    const { claude } = start(
      { turn: [claudeSteps.init(), { delayMs: 10_000 }], controlReplies: { interrupt: { noReply: true } } },
      { interruptGraceMs: 50 },
    );
    const session = claude.runStreamed({ prompt: "hi" });
    for await (const event of session.events) if (event.type === "turn.started") session.cancel("enough");
    expect((await session.result).cancellation).toEqual({ via: "killed", reason: "enough" });
  });

  it("a completed turn gets no interrupt and keeps its outcome", async () => {
    const { fake, claude } = start({ turn: claudeSteps.textTurn("done") });
    const session = claude.runStreamed({ prompt: "hi" });
    for await (const event of session.events) if (event.type === "usage") session.cancel("late");
    expect((await session.result).outcome).toBe("completed");
    const requests = fake.peer
      .linesOf("control_request")
      .map((l) => (l.request as { subtype: string }).subtype);
    expect(requests).not.toContain("interrupt");
  });

  it("run() rejects with the signal's reason; an aborted signal spawns nothing", async () => {
    const { fake, claude } = start({ turn: [claudeSteps.init(), { delayMs: 10_000 }] });
    const controller = new AbortController();
    const reason = new Error("caller stopped");
    setTimeout(() => controller.abort(reason), 30);
    await expect(claude.run({ prompt: "hi", signal: controller.signal })).rejects.toBe(reason);
    const launches = fake.launches.length;
    await expect(claude.run({ prompt: "hi", signal: controller.signal })).rejects.toBe(reason);
    expect(fake.launches.length).toBe(launches);
  });
});

describe("structured output against the fake claude", () => {
  const schema = { type: "object", properties: { a: { type: "number" } }, required: ["a"] } as const;

  it("validates the value with the schema", async () => {
    const { fake, claude } = start({
      turn: [claudeSteps.init(), claudeSteps.result({ structuredOutput: { a: 1 } })],
    });
    const result = await claude.utility({ prompt: "hi", schema });
    expect(result.value).toEqual({ a: 1 });
    expect(fake.launches[0]!.spec.args).toContain(`--json-schema=${JSON.stringify(schema)}`);
  });

  it("a value the schema refuses is a parse failure", async () => {
    const { claude } = start({
      turn: [claudeSteps.init(), claudeSteps.result({ structuredOutput: { a: "x" } })],
    });
    const terminal = await claude.utilityStreamed({ prompt: "hi", schema }).result;
    expect(terminal.failure).toMatchObject({ source: "parse", errors: ["/a must be number"] });
  });

  it("a value Claude Code itself refused is named in the failure, not reported as never given", async () => {
    const rejection = "Output does not match required schema: /a: must be number";
    const { claude } = start({
      turn: [
        claudeSteps.init(),
        ...claudeSteps.toolUse("toolu_so_1", "StructuredOutput", { a: "x" }),
        claudeSteps.toolResult("toolu_so_1", rejection, { isError: true }),
        // a sub-agent's refused call of the same name is not the turn's
        ...claudeSteps.toolUse("toolu_so_2", "StructuredOutput", { a: "y" }, { parentToolId: "toolu_task" }),
        claudeSteps.toolResult("toolu_so_2", "sub-agent's own", {
          isError: true,
          parentToolId: "toolu_task",
        }),
        ...claudeSteps.text("done"),
        claudeSteps.result({ result: "done" }),
      ],
    });
    const terminal = await claude.utilityStreamed({ prompt: "hi", schema }).result;
    expect(terminal.failure).toMatchObject({
      source: "parse",
      message:
        "Claude Code ended the turn without structured output: the model's StructuredOutput call did not match " +
        `the schema (Claude Code: ${rejection})`,
    });
  });

  it("an older Claude that reminds the model without bound is stopped after three reminders", async () => {
    const reminder = {
      send: {
        type: "user",
        isSynthetic: true,
        parent_tool_use_id: null,
        message: {
          role: "user",
          content: [
            {
              type: "text",
              text: "Stop hook feedback:\nYou MUST call the StructuredOutput tool to complete this request.",
            },
          ],
        },
      },
    };
    const { fake, claude } = start({
      turn: [
        claudeSteps.init({ version: "2.1.112" }),
        reminder,
        reminder,
        reminder,
        reminder,
        { delayMs: 10_000 },
      ],
    });
    const terminal = await claude.utilityStreamed({ prompt: "hi", schema }).result;
    expect(terminal.failure).toMatchObject({
      source: "parse",
      message: expect.stringContaining("StructuredOutput"),
    });
    expect(fake.peer.linesOf("control_request")[0]).toMatchObject({ request: { subtype: "interrupt" } });
  });
});

describe("Claude Code options are checked before anything starts", () => {
  const { fake, claude } = start({});

  it.each([
    [{ prompt: "hi", permissionMode: "default" }, /permissionMode.*Claude Agent SDK.*never asks/],
    [{ prompt: "hi", pathToClaudeCodeExecutable: "/x" }, /createClaudeCode\(\{ claude/],
    [{ prompt: "hi", workingDirectory: "/tmp" }, /did you mean `cwd`/],
    [{ promt: "hi" }, /did you mean `prompt`/],
    [{ prompt: "hi", schema: {} }, /claude\.utility/],
    [{ prompt: "hi", timeouts: { initializeMs: 5 } }, /timeouts: unknown option/],
  ])("%j is refused (OPTION_UNKNOWN)", (options, message) => {
    expect(() => claude.runStreamed(options as never)).toThrow(message);
  });

  it.each([
    [{ prompt: "  " }, "PROMPT_EMPTY"],
    [{ prompt: "hi", cwd: "/nonexistent-dir-rennet" }, "CWD_INVALID"],
    [{ prompt: "hi", resume: "not-a-uuid" }, "RESUME_ID_INVALID"],
    [{ prompt: "hi", effort: "extreme" }, "EFFORT_INVALID"],
    [
      { prompt: "hi", mcp: { servers: [{ name: "x", url: "https://example.com/mcp" }] } },
      "MCP_URL_NOT_LOOPBACK",
    ],
    // Claude Code drops a --mcp-config server of this name without a word (2.0.77, 2.1.332)
    [
      { prompt: "hi", mcp: { servers: [{ name: "__proto__", url: "http://127.0.0.1:1/mcp" }] } },
      "MCP_SPEC_INVALID",
    ],
    [{ prompt: "hi", images: ["/nonexistent.png"] }, "IMAGE_UNREADABLE"],
    [{ prompt: "hi", keepThread: "yes" }, "OPTIONS_INVALID"],
    [{ prompt: "hi", timeouts: { turnMs: -1 } }, "OPTIONS_INVALID"],
  ])("%j throws %s", (options, code) => {
    expect(() => claude.runStreamed(options as never)).toThrow(expect.objectContaining({ code }));
  });

  it("an invalid schema throws SCHEMA_INVALID; createClaudeCode refuses unknown keys; nothing was launched", () => {
    expect(() =>
      claude.utilityStreamed({ prompt: "hi", schema: { type: "object", required: 3 } as never }),
    ).toThrow(expect.objectContaining({ code: "SCHEMA_INVALID" }));
    expect(() => createClaudeCode({ codex: "/x" } as never)).toThrow(/did you mean `claude`/);
    expect(fake.launches).toEqual([]);
  });

  it.each([undefined, null, true, "object", [{ type: "object" }]])(
    "a schema that is not an object (%j) is SCHEMA_INVALID, thrown or rejected before anything starts",
    async (schema) => {
      const expected = {
        code: "SCHEMA_INVALID",
        message: expect.stringContaining("give a JSON Schema object"),
      };
      expect(() => claude.utilityStreamed({ prompt: "hi", schema: schema as never })).toThrow(
        expect.objectContaining(expected),
      );
      await expect(claude.utility({ prompt: "hi", schema: schema as never })).rejects.toMatchObject(expected);
      expect(fake.launches).toEqual([]);
    },
  );

  it("a missing schema is SCHEMA_INVALID naming the option and the call to write", async () => {
    const error = await claude.utility({ prompt: "hi" } as never).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: "SCHEMA_INVALID" });
    expect((error as Error).message).toMatch(/no `schema` was given.*utility\(\{ prompt, schema \}\)/);
    expect(fake.launches).toEqual([]);
  });

  it.each([
    { type: "array", items: { type: "string" } },
    { type: ["object", "null"] },
    { anyOf: [{ type: "object" }] },
  ])("a schema whose root is not type object (%j) is SCHEMA_UNSUPPORTED before anything starts", (schema) => {
    expect(() => claude.utilityStreamed({ prompt: "hi", schema: schema as never })).toThrow(
      expect.objectContaining({
        code: "SCHEMA_UNSUPPORTED",
        message: expect.stringMatching(
          /^Output schema cannot be used as Claude Code's structured output: at #: the root must be type "object"/,
        ),
        issues: [expect.objectContaining({ pointer: "#" })],
      }),
    );
    expect(fake.launches).toEqual([]);
  });

  it("a schema too long for one command-line argument is SCHEMA_UNSUPPORTED before anything starts", () => {
    const properties: Record<string, { type: "string"; description: string }> = {};
    for (let i = 0; i < 3000; i++)
      properties[`property_${i}`] = { type: "string", description: "x".repeat(40) };
    expect(() => claude.utilityStreamed({ prompt: "hi", schema: { type: "object", properties } })).toThrow(
      expect.objectContaining({
        code: "SCHEMA_UNSUPPORTED",
        message: expect.stringMatching(/at #: the schema is \d+ bytes as JSON; .* at most 131071 bytes/),
      }),
    );
    expect(fake.launches).toEqual([]);
  });

  it("an image file whose content is no PNG, JPEG, GIF or WebP (a .png linked to a key file) is IMAGE_UNREADABLE: its bytes are never sent", async () => {
    const dir = await tempDir("claude-image");
    const outside = await tempDir("claude-secret");
    await writeFile(
      path.join(outside, "credentials"),
      "[default]\naws_secret_access_key = not-for-the-model\n",
    );
    await symlink(path.join(outside, "credentials"), path.join(dir, "diagram.png"));
    expect(() => claude.runStreamed({ prompt: "hi", cwd: dir, images: ["diagram.png"] })).toThrow(
      expect.objectContaining({
        code: "IMAGE_UNREADABLE",
        message: expect.stringMatching(
          /^image diagram\.png: its content is not a PNG, JPEG, GIF or WebP image/,
        ),
      }),
    );
    expect(fake.launches).toEqual([]);
  });

  it("an image of a type Claude Code does not take is IMAGE_UNREADABLE, named as given", async () => {
    const dir = await tempDir("claude-image");
    await writeFile(path.join(dir, "shot.bmp"), "BM");
    expect(() => claude.runStreamed({ prompt: "hi", cwd: dir, images: ["shot.bmp"] })).toThrow(
      expect.objectContaining({
        code: "IMAGE_UNREADABLE",
        message: expect.stringMatching(/^image shot\.bmp: Claude Code takes PNG, JPEG, GIF and WebP images/),
      }),
    );
    expect(fake.launches).toEqual([]);
  });
});
