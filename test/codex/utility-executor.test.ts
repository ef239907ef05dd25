import { describe, expect, it } from "vitest";
import { createCodex } from "../../src/codex/client/codex-client.js";
import type { JsonSchemaObject } from "../../src/schema/json-schema.js";
import { prepareStructuredOutput } from "../../src/codex/schema/structured-output.js";
import {
  InvalidEffortError,
  REASONING_EFFORTS,
  validateReasoningEffort,
  type ReasoningEffort,
} from "../../src/codex/client/reasoning-effort.js";
import { prepareUtilityCall } from "../../src/codex/client/utility-executor.js";
import { TurnCancelledError, TurnFailedError } from "../../src/harness/errors.js";
import { FAKE_MODEL, FAKE_THREAD_ID, fakeSteps, type FakeScript } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { collect } from "../helpers/collect.js";
import { TASK_SCHEMA, TASK_SCHEMA_STRICT } from "../helpers/task-schema.js";
import { withTurnStartedHook } from "../helpers/turn-started-hook.js";

function client(script: FakeScript) {
  const fake = new InMemoryAppServer(script);
  const codex = createCodex({
    launcher: fake.launcher,
    codex: "/opt/codex/bin/codex",
    env: { PATH: "/bin" },
  });
  return { fake, codex };
}

function turnStartParams(fake: InMemoryAppServer): Record<string, unknown> {
  const request = fake.peer.requestsOf("turn/start")[0];
  if (!request) throw new Error("no turn/start was sent");
  return request.params as Record<string, unknown>;
}

describe("client.utility", () => {
  it("sends the strict schema and the effort on turn/start and resolves with the value mapped back", async () => {
    const answer =
      '{"title":"Plan","note":null,"tasks":[{"text":"write tests","owner":null},{"text":"ship","owner":"ana"}]}';
    const { codex, fake } = client({
      turn: fakeSteps.textTurn(answer, [answer.slice(0, 10), answer.slice(10)]),
    });
    const result = await codex.utility({
      prompt: "plan it",
      schema: TASK_SCHEMA,
      effort: "high",
      cwd: "/tmp",
    });
    expect(result.value).toEqual({
      title: "Plan",
      tasks: [{ text: "write tests" }, { text: "ship", owner: "ana" }],
    });
    expect(result.finalMessage).toBe(answer);
    expect(result.model).toBe(FAKE_MODEL);
    expect(result.threadId).toBe(FAKE_THREAD_ID);
    expect(result.usage).toMatchObject({ inputTokens: 10, outputTokens: 5 });
    expect(result.terminal.structuredOutput).toEqual(result.value);

    const params = turnStartParams(fake);
    expect(params.outputSchema).toEqual(TASK_SCHEMA_STRICT);
    expect(params.outputSchema).toEqual(prepareStructuredOutput(TASK_SCHEMA).outputSchema);
    expect(params.effort).toBe("high");
    expect(params.input).toEqual([{ type: "text", text: "plan it" }]);
    expect(fake.peer.requestsOf("thread/start")[0]?.params).not.toHaveProperty("effort");
    expect(fake.launches[0]?.terminated).toBe(true);
  });

  it("sends no effort when none is given, but still the output schema", async () => {
    const { codex, fake } = client({ turn: fakeSteps.textTurn('{"title":"t","tasks":[]}') });
    const result = await codex.utility({ prompt: "x", schema: TASK_SCHEMA });
    expect(result.value).toEqual({ title: "t", tasks: [] });
    const params = turnStartParams(fake);
    expect(params).not.toHaveProperty("effort");
    expect(params.outputSchema).toEqual(TASK_SCHEMA_STRICT);
  });

  it("does not modify the caller's schema", async () => {
    const schema = structuredClone(TASK_SCHEMA);
    const { codex } = client({ turn: fakeSteps.textTurn('{"title":"t","note":null,"tasks":[]}') });
    await codex.utility({ prompt: "x", schema });
    expect(schema).toEqual(TASK_SCHEMA);
  });

  it("keeps a null the caller's schema accepts", async () => {
    const schema = { type: "object", properties: { note: { type: ["string", "null"] } } };
    const { codex, fake } = client({ turn: fakeSteps.textTurn('{"note":null}') });
    const result = await codex.utility({ prompt: "x", schema });
    expect(result.value).toEqual({ note: null });
    expect(turnStartParams(fake).outputSchema).toEqual({
      type: "object",
      properties: { note: { type: ["string", "null"] } },
      required: ["note"],
      additionalProperties: false,
    });
  });

  it("rejects with a parse failure quoting the text when the final message is not JSON", async () => {
    const { codex, fake } = client({ turn: fakeSteps.textTurn("Sure! Here is the plan: title=Plan") });
    const error = await codex.utility({ prompt: "x", schema: TASK_SCHEMA }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TurnFailedError);
    const terminal = (error as TurnFailedError).terminal;
    expect(terminal.outcome).toBe("failed");
    expect(terminal.finalMessage).toBe("Sure! Here is the plan: title=Plan");
    expect(terminal).not.toHaveProperty("structuredOutput");
    expect(terminal.failure).toMatchObject({ source: "parse", line: "Sure! Here is the plan: title=Plan" });
    expect(terminal.failure?.message).toContain("not valid JSON");
    expect(terminal.failure?.message).toContain('"Sure! Here is the plan: title=Plan"');
    expect((error as Error).message).toMatch(/^parse failure: /);
    expect(fake.launches[0]?.terminated).toBe(true);
  });

  it("rejects with a parse failure naming the violations when the JSON breaks the schema", async () => {
    const answer = '{"title":5,"note":null,"tasks":[{"text":7,"owner":null}]}';
    const { codex } = client({ turn: fakeSteps.textTurn(answer) });
    const error = await codex.utility({ prompt: "x", schema: TASK_SCHEMA }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TurnFailedError);
    const failure = (error as TurnFailedError).terminal.failure;
    expect(failure?.source).toBe("parse");
    if (failure?.source !== "parse") throw new Error("expected a parse failure");
    expect(failure.errors).toEqual(["/title must be string", "/tasks/0/text must be string"]);
    expect(failure.message).toContain("/title must be string; /tasks/0/text must be string");
    expect(failure.message).toContain("it starts with: ");
    expect(failure.line).toBe(answer);
  });

  it("a turn that completes without a final message is a parse failure", async () => {
    const { codex } = client({ turn: [fakeSteps.turnStarted(), fakeSteps.turnCompleted("completed")] });
    const error = await codex.utility({ prompt: "x", schema: TASK_SCHEMA }).catch((e: unknown) => e);
    expect((error as TurnFailedError).terminal.failure).toMatchObject({ source: "parse", line: "" });
    expect((error as Error).message).toContain("without a final message");
  });

  it("an answer nested too deeply for the mapping back is a parse failure, not a turn that never ends", async () => {
    const schema = {
      type: "object",
      properties: { next: { anyOf: [{ $ref: "#" }, { type: "null" }] } },
      required: ["next"],
    } as const;
    const answer = `${'{"next":'.repeat(20_000)}null${"}".repeat(20_000)}`;
    const { codex } = client({ turn: fakeSteps.textTurn(answer) });
    const error = await codex.utility({ prompt: "x", schema }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TurnFailedError);
    const failure = (error as TurnFailedError).terminal.failure;
    expect(failure).toMatchObject({ source: "parse", line: expect.stringMatching(/^\{"next":/) });
    expect(failure?.message).toContain("nests deeper than");
  }, 10_000);

  it("a turn failure keeps its own source (same taxonomy as run)", async () => {
    const { codex } = client({
      turn: [
        fakeSteps.turnStarted(),
        fakeSteps.turnCompleted("failed", { error: { message: "provider down" } }),
      ],
    });
    const error = await codex.utility({ prompt: "x", schema: TASK_SCHEMA }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TurnFailedError);
    expect(error).toMatchObject({
      code: "TURN_FAILED",
      terminal: { failure: { source: "turn", message: "provider down" } },
    });
  });

  it("rejects with TurnCancelledError when codex interrupts the turn on its own", async () => {
    const { codex } = client({ turn: [fakeSteps.turnStarted(), fakeSteps.turnCompleted("interrupted")] });
    const error = await codex.utility({ prompt: "x", schema: TASK_SCHEMA }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TurnCancelledError);
  });

  it("rejects with exactly signal.reason when the caller's signal cancels a running call", async () => {
    const fake = new InMemoryAppServer({ turn: [fakeSteps.turnStarted()] });
    const controller = new AbortController();
    const reason = { why: "caller gave up" };
    const codex = createCodex({
      launcher: withTurnStartedHook(fake, () => controller.abort(reason)),
      interruptGraceMs: 60_000,
    });
    await expect(codex.utility({ prompt: "x", schema: TASK_SCHEMA, signal: controller.signal })).rejects.toBe(
      reason,
    );
    expect(fake.peer.requestsOf("turn/interrupt")).toHaveLength(1);
    expect(fake.launches[0]?.terminated).toBe(true);
  });

  it("rejects with exactly signal.reason for an already-aborted signal and launches nothing", async () => {
    const { codex, fake } = client({ turn: fakeSteps.textTurn("{}") });
    const reason = new Error("cancelled up front");
    await expect(
      codex.utility({ prompt: "x", schema: TASK_SCHEMA, signal: AbortSignal.abort(reason) }),
    ).rejects.toBe(reason);
    expect(fake.launches).toHaveLength(0);
  });
});

describe("schema and effort errors come before any launch", () => {
  const cases: { name: string; schema: JsonSchemaObject; code: string }[] = [
    {
      name: "an invalid schema",
      schema: { type: "object", properties: { a: { type: "strnig" } } },
      code: "SCHEMA_INVALID",
    },
    {
      name: "an unsupported schema",
      schema: { type: "object", properties: { a: { oneOf: [{ type: "string" }, { type: "number" }] } } },
      code: "SCHEMA_UNSUPPORTED",
    },
    {
      name: "a non-object root",
      schema: { type: "array", items: { type: "string" } },
      code: "SCHEMA_UNSUPPORTED",
    },
  ];
  for (const { name, schema, code } of cases) {
    it(`utility() rejects ${name} with ${code}`, async () => {
      const { codex, fake } = client({ turn: fakeSteps.textTurn("{}") });
      await expect(codex.utility({ prompt: "x", schema })).rejects.toMatchObject({ code });
      expect(fake.launches.length).toBe(0);
    });

    it(`utilityStreamed() throws ${name} synchronously with ${code}`, () => {
      const { codex, fake } = client({ turn: fakeSteps.textTurn("{}") });
      expect(() => codex.utilityStreamed({ prompt: "x", schema })).toThrow(
        expect.objectContaining({ code }) as Error,
      );
      expect(fake.launches.length).toBe(0);
    });
  }

  it.each([undefined, null, true, "object", [{ type: "object" }]])(
    "a schema that is not an object (%j) is SCHEMA_INVALID saying what it got and what to give",
    async (schema) => {
      const { codex, fake } = client({ turn: fakeSteps.textTurn("{}") });
      const got = schema === undefined ? "no `schema` was given" : "got ";
      const expected = { code: "SCHEMA_INVALID", message: expect.stringContaining(got) };
      expect(() => codex.utilityStreamed({ prompt: "x", schema: schema as never })).toThrow(
        expect.objectContaining(expected) as Error,
      );
      await expect(codex.utility({ prompt: "x", schema: schema as never })).rejects.toMatchObject({
        ...expected,
        message: expect.stringContaining('give a JSON Schema object such as {"type":"object"'),
      });
      expect(fake.launches.length).toBe(0);
    },
  );

  it("a missing schema names the option and the call to write", async () => {
    const { codex } = client({ turn: fakeSteps.textTurn("{}") });
    const error = await codex.utility({ prompt: "x" } as never).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/no `schema` was given.*utility\(\{ prompt, schema \}\)/);
  });

  it("an unknown effort is rejected with EFFORT_INVALID naming the accepted ones", async () => {
    const { codex, fake } = client({ turn: fakeSteps.textTurn("{}") });
    const error = await codex
      .utility({ prompt: "x", schema: TASK_SCHEMA, effort: "ultra" as ReasoningEffort })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InvalidEffortError);
    expect(error).toMatchObject({ code: "EFFORT_INVALID", effort: "ultra" });
    expect((error as Error).message).toContain("none, minimal, low, medium, high, xhigh, max");
    expect(fake.launches.length).toBe(0);
  });

  it("a schema error wins over an already-aborted signal", async () => {
    const { codex, fake } = client({});
    await expect(
      codex.utility({
        prompt: "x",
        schema: { type: "object", properties: { a: {} } },
        signal: AbortSignal.abort(),
      }),
    ).rejects.toMatchObject({ code: "SCHEMA_UNSUPPORTED" });
    expect(fake.launches.length).toBe(0);
  });
});

describe("utilityStreamed", () => {
  it("streams the turn and puts the value on the terminal frame", async () => {
    const { codex } = client({
      turn: fakeSteps.textTurn('{"title":"t","note":null,"tasks":[]}', [
        '{"title":',
        '"t","note":null,"tasks":[]}',
      ]),
    });
    const { events, terminal } = await collect(
      codex.utilityStreamed({ prompt: "x", schema: TASK_SCHEMA, effort: "low" }),
    );
    expect(events.map((e) => e.type)).toContain("text.delta");
    expect(events.at(-1)).toBe(terminal);
    expect(terminal).toMatchObject({ outcome: "completed", structuredOutput: { title: "t", tasks: [] } });
  });

  it("ends failed with the parse failure on the terminal frame", async () => {
    const { codex } = client({ turn: fakeSteps.textTurn('{"title":"t"}') });
    const { terminal } = await collect(codex.utilityStreamed({ prompt: "x", schema: TASK_SCHEMA }));
    expect(terminal.outcome).toBe("failed");
    expect(terminal.failure).toMatchObject({
      source: "parse",
      errors: ["(root) must have required property 'tasks'"],
    });
  });
});

describe("the agentic session never sends effort or an output schema", () => {
  it("runStreamed and run refuse them from an untyped caller, before anything starts", async () => {
    const { codex, fake } = client({ turn: fakeSteps.textTurn("not JSON at all") });
    const smuggled = {
      prompt: "x",
      effort: "high",
      outputSchema: { type: "object" },
      completionCheck: () => ({ ok: false }),
    };
    const refused = { name: "InvalidOptionsError", code: "OPTION_UNKNOWN" };
    expect(() => codex.runStreamed(smuggled as unknown as Parameters<typeof codex.runStreamed>[0])).toThrow(
      expect.objectContaining(refused),
    );
    await expect(codex.run(smuggled as unknown as Parameters<typeof codex.run>[0])).rejects.toMatchObject(
      refused,
    );
    expect(fake.launches).toHaveLength(0);
  });

  it("a utility call and an agentic call on the same client: effort only on the utility one", async () => {
    const { codex, fake } = client({ turn: fakeSteps.textTurn('{"title":"t","tasks":[]}') });
    await codex.run({ prompt: "agentic" });
    await codex.utility({ prompt: "utility", schema: TASK_SCHEMA, effort: "minimal" });
    const [agentic, utility] = fake.launches.map(
      (l) => l.peer.requestsOf("turn/start")[0]?.params as Record<string, unknown>,
    );
    expect(agentic).not.toHaveProperty("effort");
    expect(utility?.effort).toBe("minimal");
  });
});

describe("prepareUtilityCall / validateReasoningEffort (pure)", () => {
  it("accepts exactly the listed efforts", () => {
    for (const effort of REASONING_EFFORTS) expect(validateReasoningEffort(effort)).toBe(effort);
    for (const bad of ["", "HIGH", "ultra", "extreme", 3, null, undefined]) {
      expect(() => validateReasoningEffort(bad)).toThrow(InvalidEffortError);
    }
  });

  it("builds runner options with the strict schema, the effort and a completion check", () => {
    const options = prepareUtilityCall({ prompt: "p", schema: TASK_SCHEMA, effort: "xhigh", model: "m" });
    expect(options).toMatchObject({
      prompt: "p",
      model: "m",
      effort: "xhigh",
      outputSchema: TASK_SCHEMA_STRICT,
    });
    expect(options).not.toHaveProperty("schema");
    const check = options.completionCheck;
    if (!check) throw new Error("no completion check");
    expect(check('{"title":"a","note":null,"tasks":[]}')).toEqual({
      ok: true,
      value: { title: "a", tasks: [] },
    });
    const failed = check("[1]");
    expect(failed.ok).toBe(false);
    if (failed.ok) return;
    expect(failed.failure).toMatchObject({ source: "parse", line: "[1]", errors: ["(root) must be object"] });
  });
});
