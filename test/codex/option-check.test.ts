/**
 * What a caller passes is checked before anything starts: unknown option keys (with what to use instead, for
 * the Codex SDK's names too), the prompt, the working directory, the types of the other options. Nothing is
 * launched for a refused call.
 */
import { writeFile, mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readPrompt } from "../../src/cli/read-prompt.js";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import { createCodex } from "../../src/codex/client/codex-client.js";
import { discoverCodex, explicitCodex } from "../../src/index.js";
import {
  CALL_OPTIONS,
  CLIENT_OPTIONS,
  CONVERSATION_OPTIONS,
  UTILITY_OPTIONS,
} from "../../src/codex/client/known-options.js";
import { checkPrompt } from "../../src/codex/client/turn-inputs.js";
import { RennetError } from "../../src/errors.js";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { Readable } from "node:stream";

let dir: string;
let file: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), "rennet-options-"));
  file = path.join(dir, "a-file.txt");
  await writeFile(file, "x");
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

function client() {
  const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("ok") });
  return { fake, codex: createCodex({ launcher: fake.launcher, env: {} }) };
}

/** Calls `runStreamed`, `run`, `utility` and `utilityStreamed` with `options` and returns what each threw. */
async function refusals(options: Record<string, unknown>, schema = true): Promise<unknown[]> {
  const { fake, codex } = client();
  const untyped = codex as unknown as Record<string, (o: unknown) => unknown>;
  const withSchema = schema ? { schema: { type: "object", properties: {} }, ...options } : options;
  const errors: unknown[] = [];
  for (const [method, call] of [
    ["runStreamed", options],
    ["run", options],
    ["utilityStreamed", withSchema],
    ["utility", withSchema],
  ] as const) {
    try {
      await untyped[method]?.call(codex, call);
      errors.push(null);
    } catch (error) {
      errors.push(error);
    }
  }
  expect(fake.launches).toHaveLength(0);
  return errors;
}

function expectRennet(error: unknown, code: string, message?: RegExp): void {
  expect(error).toBeInstanceOf(RennetError);
  expect((error as RennetError).code).toBe(code);
  if (message) expect((error as Error).message).toMatch(message);
}

describe("unknown option keys", () => {
  it("the Codex SDK's workingDirectory is refused before a full-access turn starts elsewhere", async () => {
    for (const error of await refusals({ prompt: "hi", workingDirectory: dir })) {
      expectRennet(error, "OPTION_UNKNOWN", /`workingDirectory`: an option of OpenAI's Codex SDK; use `cwd`/);
    }
  });

  it.each([
    ["sandboxMode", /workspace-write. sandbox when you pass .approvals/],
    ["skipGitRepoCheck", /outside a git repository as well/],
    ["modelReasoningEffort", /use `effort` of codex.utility\(\)/],
    ["outputSchema", /codex.utility\(\{ prompt, schema \}\)/],
    ["baseUrl", /never handles endpoints or credentials/],
    ["apiKey", /never handles credentials/],
    ["approvalPolicy", /approvals: \{ onRequest \}/],
    ["networkAccessEnabled", /full access, network included/],
    ["codexPathOverride", /createCodex\(\{ codex:/],
  ])("%s (Codex SDK) says what to use instead", async (key, hint) => {
    const [error] = await refusals({ prompt: "hi", [key]: "x" });
    expectRennet(error, "OPTION_UNKNOWN", hint);
    expect((error as RennetError).details).toEqual({ unknown: [key] });
  });

  it("a typo gets the closest known key; a key of another entry point says where it goes", async () => {
    const [typo] = await refusals({ prompt: "hi", modle: "m" });
    expectRennet(typo, "OPTION_UNKNOWN", /`modle`: did you mean `model`\?/);
    const [elsewhere] = await refusals({ prompt: "hi", env: {} });
    expectRennet(elsewhere, "OPTION_UNKNOWN", /`env` is an option of createCodex\(\{ env \}\)/);
    const [effort] = await refusals({ prompt: "hi", effort: "low" }, false);
    expectRennet(effort, "OPTION_UNKNOWN", /`effort` is an option of codex.utility\(\)/);
  });

  it("createCodex refuses codexPath (and the SDK's codexPathOverride) instead of running discovery", () => {
    expect(() => createCodex({ codexPath: "/x/codex" } as never)).toThrow(
      expect.objectContaining({
        code: "OPTION_UNKNOWN",
        message: expect.stringMatching(/did you mean `codex`/),
      }),
    );
    expect(() => createCodex({ codexPathOverride: "/x/codex" } as never)).toThrow(
      expect.objectContaining({ code: "OPTION_UNKNOWN" }),
    );
    expect(() => createCodex({ prompt: "hi" } as never)).toThrow(
      expect.objectContaining({ message: expect.stringMatching(/`prompt` is an option of each call/) }),
    );
    // a typo of another entry point's key: the key it is closest to, and where that one goes
    expect(() => createCodex({ modle: "m" } as never)).toThrow(
      expect.objectContaining({
        code: "OPTION_UNKNOWN",
        message: expect.stringMatching(/`modle`: did you mean `model`\? `model` is an option of each call/),
      }),
    );
    expect(() => createCodex({ codex: 42 } as never)).toThrow(
      expect.objectContaining({ code: "OPTIONS_INVALID" }),
    );
  });

  it("conversation(), conversation.run() and resolveCodex() check their keys", async () => {
    const { codex, fake } = client();
    expect(() => codex.conversation({ workingDirectory: dir } as never)).toThrow(
      expect.objectContaining({ code: "OPTION_UNKNOWN" }),
    );
    expect(() => codex.conversation({ cwd: file })).toThrow(expect.objectContaining({ code: "CWD_INVALID" }));
    const chat = codex.conversation({ cwd: dir });
    await expect(chat.run("hi", { signl: undefined } as never)).rejects.toMatchObject({
      code: "OPTION_UNKNOWN",
    });
    await expect(chat.run("   ")).rejects.toMatchObject({ code: "PROMPT_EMPTY" });
    // a conversation continues the thread given as `threadId`; `resume` is what a single call takes
    for (const refused of [
      () => codex.conversation({ cwd: dir, resume: "thr_1" } as never),
      () => createCodex({ resume: "thr_1" } as never),
    ])
      expect(refused).toThrow(/`resume`: not one of these; .*codex\.conversation\(\{ threadId \}\)/);
    await expect(codex.resolveCodex({ dir } as never)).rejects.toMatchObject({
      code: "OPTION_UNKNOWN",
      message: expect.stringMatching(/did you mean `cwd`/),
    });
    expect(fake.launches).toHaveLength(0);
  });

  it("a key spelled in another case or with separators gets the key (CWD, MAX_TOOL_CALLS)", async () => {
    const [upper] = await refusals({ prompt: "hi", CWD: "." });
    expectRennet(upper, "OPTION_UNKNOWN", /`CWD`: did you mean `cwd`\?/);
    const [snake] = await refusals({ prompt: "hi", limits: { MAX_TOOL_CALLS: 1 } });
    expectRennet(snake, "OPTION_UNKNOWN", /`MAX_TOOL_CALLS`: did you mean `maxToolCalls`\?/);
  });

  it("a timeouts key is checked too, and each deadline's value", async () => {
    const [typo] = await refusals({ prompt: "hi", timeouts: { turnMS: 5 } });
    expectRennet(typo, "OPTION_UNKNOWN", /`turnMS`: did you mean `turnMs`\?/);
    const [negative] = await refusals({ prompt: "hi", timeouts: { initializeMs: -1 } });
    expectRennet(negative, "OPTIONS_INVALID", /timeouts.initializeMs must be a number of milliseconds/);
  });

  it("every known key passes the key check", async () => {
    const valid: Record<string, unknown> = {
      prompt: "hi",
      cwd: dir,
      model: "m",
      signal: new AbortController().signal,
      timeouts: { turnMs: 5_000 },
      ephemeral: true,
      resume: undefined,
      images: [],
      reasoningSummary: "auto",
      mcp: "inherit",
      trustProject: false,
      approvals: { onRequest: () => "accept" },
      limits: { maxTokens: 1_000 },
      tools: [],
    };
    expect(Object.keys(valid).sort()).toEqual([...CALL_OPTIONS.keys].sort());
    const { codex } = client();
    await expect(codex.run(valid as never)).resolves.toMatchObject({ finalMessage: "ok" });
    expect(UTILITY_OPTIONS.keys).toEqual([...CALL_OPTIONS.keys, "schema", "effort"]);
    expect(CONVERSATION_OPTIONS.keys).toContain("threadId");
    expect(CLIENT_OPTIONS.keys).toContain("codex");
  });
});

describe("the options' values", () => {
  it.each([
    ["missing", undefined, /prompt is missing/],
    ["empty", "", /prompt is empty/],
    ["whitespace only", " \n\t ", /prompt is empty/],
    ["not text", 42, /prompt must be text, got number 42/],
    ["list of texts", ["a"], /prompt must be text, got an array/],
  ])("a %s prompt is PROMPT_EMPTY", async (_, prompt, message) => {
    for (const error of await refusals({ prompt })) expectRennet(error, "PROMPT_EMPTY", message);
  });

  it("a cwd that does not exist, is a file, or is empty is CWD_INVALID naming it", async () => {
    const missing = path.join(dir, "nope");
    for (const error of await refusals({ prompt: "hi", cwd: missing }))
      expectRennet(error, "CWD_INVALID", new RegExp(`cwd ${missing}: no such directory; create it`));
    for (const error of await refusals({ prompt: "hi", cwd: file }))
      expectRennet(error, "CWD_INVALID", /not a directory; pass the directory Codex should work in/);
    for (const error of await refusals({ prompt: "hi", cwd: "" })) expectRennet(error, "CWD_INVALID");
  });

  it("options that are not an object, and values of the wrong type, are OPTIONS_INVALID", async () => {
    const { codex } = client();
    expect(() => codex.runStreamed("hello" as never)).toThrow(
      expect.objectContaining({
        code: "OPTIONS_INVALID",
        message: expect.stringContaining('pass { prompt: "hello" }'),
      }),
    );
    // a string in place of the options names the option it most likely is
    expect(() => createCodex("/usr/bin/codex" as never)).toThrow('pass { codex: "/usr/bin/codex" }');
    expect(() => createClaudeCode("/usr/bin/claude" as never)).toThrow('pass { claude: "/usr/bin/claude" }');
    expect(() => codex.conversation("/tmp" as never)).toThrow('pass { cwd: "/tmp" }');
    await expect(codex.resolveCodex("/tmp" as never)).rejects.toThrow('pass { cwd: "/tmp" }');
    const cases = [{ signal: "stop" }, { images: "a.png" }, { model: "" }, { ephemeral: "no" }];
    for (const bad of cases) {
      const [error] = await refusals({ prompt: "hi", ...bad });
      expectRennet(error, "OPTIONS_INVALID");
    }
    const [trust] = await refusals({ prompt: "hi", trustProject: "yes" });
    expectRennet(trust, "OPTIONS_INVALID", /trustProject must be true or false, got "yes"/);
  });

  it("a Claude Code option of a concept Codex names otherwise says the Codex way", async () => {
    const [keep] = await refusals({ prompt: "hi", keepThread: true });
    expectRennet(keep, "OPTION_UNKNOWN", /`keepThread`: .*`ephemeral: false`/);
    const [budget] = await refusals({ prompt: "hi", maxBudgetUsd: 1 });
    expectRennet(budget, "OPTION_UNKNOWN", /`maxBudgetUsd`: .*limits\.maxTokens/);
    const claude = createClaudeCode({
      launcher: () => {
        throw new Error("launched");
      },
    });
    expect(() => claude.runStreamed({ prompt: "hi", ephemeral: false } as never)).toThrow(
      /`ephemeral`: .*`keepThread: true`/,
    );
  });

  it("a deadline of approvals or limits of the wrong type is shown with its value", async () => {
    const onRequest = () => "accept" as const;
    const [approval] = await refusals({ prompt: "hi", approvals: { onRequest, timeoutMs: "5" } });
    expectRennet(approval, "OPTIONS_INVALID", /approvals\.timeoutMs must be .*, got "5"$/);
    const [limit] = await refusals({ prompt: "hi", limits: { maxDurationMs: 0 } });
    expectRennet(limit, "OPTIONS_INVALID", /limits\.maxDurationMs must be .*, got number 0$/);
  });

  it("a long text value is cut on a character, never inside a surrogate pair", async () => {
    const given = `${"x".repeat(59)}😀${"y".repeat(20)}`;
    const [error] = await refusals({
      prompt: "hi",
      approvals: { onRequest: () => "accept", timeoutMs: given },
    });
    const shown = /got (".*")$/.exec((error as Error).message)?.[1] ?? "";
    expect(shown).not.toMatch(/\\ud83d/i);
    expect(JSON.parse(shown)).toMatch(/^x{59}(😀)?…$/u);
  });

  it("an images entry that is not a path is named with its value, for both harnesses", async () => {
    const [codexError] = await refusals({ prompt: "hi", images: ["a.png", 1] });
    expectRennet(
      codexError,
      "OPTIONS_INVALID",
      /^images\[1\] must be a file path \(a string\), got number 1$/,
    );
    const claude = createClaudeCode({
      launcher: () => {
        throw new Error("launched");
      },
    });
    expect(() => claude.runStreamed({ prompt: "hi", images: [null] as never })).toThrow(
      "images[0] must be a file path (a string), got null",
    );
  });
});

describe("the client options' values", () => {
  it.each<[string, Record<string, unknown>, RegExp]>([
    [
      "env a number",
      { env: 5 },
      /env must be an object of environment variables \(like process\.env\), got number 5/,
    ],
    ["env an array", { env: ["PATH=/bin"] }, /env must be an object of environment variables.*got an array/],
    ["an env value a number", { env: { CODEX_HOME: 5 } }, /env\.CODEX_HOME must be a string.*got number 5/],
    [
      "launcher not a function",
      { launcher: 5 },
      /launcher must be a function \(spec\) => child, got number 5/,
    ],
    [
      "interruptGraceMs text",
      { interruptGraceMs: "2000" },
      /interruptGraceMs must be a number of milliseconds, got "2000"/,
    ],
    [
      "interruptGraceMs NaN",
      { interruptGraceMs: Number.NaN },
      /interruptGraceMs must be a number of milliseconds/,
    ],
    ["reapOrphans text", { reapOrphans: "yes" }, /reapOrphans must be true or false, got "yes"/],
  ])("%s is OPTIONS_INVALID when the client is made, for both harnesses", (_, options, message) => {
    for (const create of [createCodex, createClaudeCode] as ((o: unknown) => unknown)[]) {
      let thrown: unknown = null;
      try {
        create(options);
      } catch (error) {
        thrown = error;
      }
      expectRennet(thrown, "OPTIONS_INVALID", message);
    }
  });

  it("explicitCodex() of something that is not a path is OPTIONS_INVALID, not a launch that fails to spawn", () => {
    for (const [value, got] of [
      [undefined, "got undefined"],
      [5, "got number 5"],
      ["", 'got ""'],
    ] as const) {
      let thrown: unknown = null;
      try {
        explicitCodex(value as never);
      } catch (error) {
        thrown = error;
      }
      expectRennet(thrown, "OPTIONS_INVALID", new RegExp(`explicitCodex\\(path\\) takes the path .*${got}$`));
    }
    expect(explicitCodex("/opt/codex").path).toBe("/opt/codex");
  });

  it("values of the right type pass", () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("ok") });
    const good = {
      env: { PATH: "/bin", UNSET: undefined },
      launcher: fake.launcher,
      interruptGraceMs: 0,
      reapOrphans: false,
    };
    expect(() => createCodex(good)).not.toThrow();
    expect(() => createClaudeCode(good as never)).not.toThrow();
  });
});

describe("discoverCodex() options and a client's discovery", () => {
  it.each<[string, unknown, string, RegExp]>([
    ["null", null, "OPTIONS_INVALID", /discoverCodex\(\) options must be an object, got null/],
    [
      "a typo",
      { loginShel: false },
      "OPTION_UNKNOWN",
      /unknown option `loginShel`: did you mean `loginShell`\?/,
    ],
    ["signal text", { signal: "stop" }, "OPTIONS_INVALID", /signal must be an AbortSignal/],
    ["cwd a number", { cwd: 5 }, "OPTIONS_INVALID", /cwd must be a non-empty string, got number 5/],
    ["env an array", { env: [] }, "OPTIONS_INVALID", /env must be an object of environment variables/],
    [
      "cache unknown",
      { cache: "never" },
      "OPTIONS_INVALID",
      /cache must be "use", "refresh" or "off", got "never"/,
    ],
    ["timeoutMs text", { timeoutMs: "5s" }, "OPTIONS_INVALID", /timeoutMs must be a number of milliseconds/],
  ])("discoverCodex() options: %s is refused before anything starts", async (_, options, code, message) => {
    const error = await discoverCodex(options as never).then(
      () => null,
      (reason: unknown) => reason,
    );
    expectRennet(error, code, message);
  });

  it("createCodex({ discovery }) checks its keys and values when the client is made", () => {
    expect(() => createCodex({ discovery: { loginShel: false } as never })).toThrow(
      expect.objectContaining({
        code: "OPTION_UNKNOWN",
        message: expect.stringContaining("createCodex({ discovery }): unknown option `loginShel`"),
      }),
    );
    // cwd, env and signal come from the client and the call, not from `discovery`
    expect(() => createCodex({ discovery: { cwd: "/tmp" } as never })).toThrow(
      expect.objectContaining({ code: "OPTION_UNKNOWN" }),
    );
    expect(() => createCodex({ discovery: { loginShell: "no" } as never })).toThrow(
      expect.objectContaining({
        code: "OPTIONS_INVALID",
        message: 'loginShell must be true or false, got "no"',
      }),
    );
    expect(() => createCodex({ discovery: { loginShell: false, cacheDir: dir, mode: "all" } })).not.toThrow();
  });
});

describe("options inherited from a prototype", () => {
  it("a known key only on the prototype is OPTIONS_INVALID, for the calls and the clients", async () => {
    // runStreamed and run (the utility calls get a spread copy here, which keeps own keys only)
    const [streamed, run] = await refusals(Object.create({ prompt: "hi" }) as Record<string, unknown>);
    for (const error of [streamed, run])
      expectRennet(error, "OPTIONS_INVALID", /`prompt` inherited from the object's prototype, not its own/);
    expect(() => createCodex(Object.create({ codex: "/tmp/codex" }) as never)).toThrow(
      expect.objectContaining({ code: "OPTIONS_INVALID", details: { inherited: ["codex"] } }),
    );
  });

  it("a polluted Object.prototype does not turn trust on (or pick the executable) behind the caller's back", async () => {
    const prototype = Object.prototype as Record<string, unknown>;
    prototype.trustProject = true;
    prototype.claude = "/tmp/evil-claude";
    try {
      for (const error of await refusals({ prompt: "hi" }))
        expectRennet(error, "OPTIONS_INVALID", /`trustProject` inherited from the object's prototype/);
      expect(() => createClaudeCode({})).toThrow(
        expect.objectContaining({
          code: "OPTIONS_INVALID",
          message: expect.stringContaining("`claude` inherited"),
        }),
      );
    } finally {
      delete prototype.trustProject;
      delete prototype.claude;
    }
  });
});

describe("the library and the CLI agree on the prompt", () => {
  it.each(["", " ", "\n\t", "hi", " fix it "])("%j", async (prompt) => {
    const library = (() => {
      try {
        checkPrompt(prompt, "Codex");
        return "ok";
      } catch {
        return "refused";
      }
    })();
    const cli = await readPrompt(prompt, Readable.from([]), { command: "rennet codex run" }).then(
      () => "ok",
      (error: RennetError) => (error.code === "CLI_USAGE" ? "refused" : "other"),
    );
    expect(cli).toBe(library);
  });
});

describe("misusing a session", () => {
  it("iterating session.events a second time is EVENTS_ITERATED_TWICE, a RennetError", async () => {
    const { codex } = client();
    const session = codex.runStreamed({ prompt: "hi", cwd: dir });
    for await (const event of session.events) if (event.type === "terminal") break;
    expect(() => session.events[Symbol.asyncIterator]()).toThrow(
      expect.objectContaining({ code: "EVENTS_ITERATED_TWICE" }),
    );
    await session.result;
  });
});
