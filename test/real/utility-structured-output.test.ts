import { afterEach, describe, expect, it } from "vitest";
import { codexCapabilities } from "../../src/codex/versions/capabilities.js";
import { prepareStructuredOutput } from "../../src/codex/schema/structured-output.js";
import { TurnFailedError } from "../../src/harness/errors.js";
import { json, rawText, text } from "../../src/testkit/model-scenarios.js";
import { testCodexVersion } from "../helpers/codex-bin.js";
import { collect } from "../helpers/collect.js";
import { startRealCodex, type RealCodexFixture } from "../helpers/real-codex.js";
import { TASK_SCHEMA, TASK_SCHEMA_STRICT } from "../helpers/task-schema.js";

let fixture: RealCodexFixture | null = null;
afterEach(async () => {
  await fixture?.dispose();
  fixture = null;
});

const caps = codexCapabilities(testCodexVersion());

/**
 * The effort Rennet sent in `turn/start` reached the model request. Where codex sends no `reasoning` for a
 * model it has no metadata for (the loopback's `mock-model`, before `effortForUncataloguedModel`), the request
 * is checked to have none, and Rennet's part is what `turn/start` carried.
 */
function expectEffort(f: RealCodexFixture, effort: string | undefined): void {
  const turnStart = f.sent("turn/start")[0] as Record<string, unknown>;
  if (effort === undefined) expect(turnStart).not.toHaveProperty("effort");
  else expect(turnStart).toMatchObject({ effort });
  const reasoning = firstRequestBody(f).reasoning;
  if (!caps.effortForUncataloguedModel) expect(reasoning ?? null).toBeNull();
  else if (effort === undefined) expect(reasoning).not.toHaveProperty("effort");
  else expect(reasoning).toMatchObject({ effort });
}

function firstRequestBody(f: RealCodexFixture): Record<string, unknown> {
  const body = f.model.responsesRequests()[0]?.body;
  if (typeof body !== "object" || body === null) throw new Error("the model received no JSON request");
  return body as Record<string, unknown>;
}

/** Title suffix of a test that needs codex to honour `turn/start.outputSchema`, saying why it is skipped. */
const needsOutputSchema = caps.outputSchema
  ? ""
  : ` [skipped: codex ${caps.version} lacks the outputSchema capability]`;

describe("real codex, offline: utility calls", () => {
  it.runIf(!caps.outputSchema)(
    "without the outputSchema capability (codex < 0.80) a utility call fails before thread work with CODEX_UNSUPPORTED_VERSION",
    async () => {
      fixture = await startRealCodex(json({ title: "T", note: null, tasks: [] }));
      const error = await fixture.client
        .utility({ prompt: "x", schema: TASK_SCHEMA, cwd: fixture.cwd })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TurnFailedError);
      const failure = (error as TurnFailedError).terminal.failure;
      expect(failure).toMatchObject({ code: "CODEX_UNSUPPORTED_VERSION" });
      expect(failure?.message).toContain("structured output (`turn/start.outputSchema`), which needs 0.80.0");
      expect(fixture.sent("thread/start")).toEqual([]);
      expect(fixture.model.responsesRequests()).toEqual([]);
    },
  );

  it.skipIf(!caps.outputSchema)(
    `the model request carries the strict schema and the effort; the value comes back mapped${needsOutputSchema}`,
    async () => {
      fixture = await startRealCodex(
        json({
          title: "Plan",
          note: null,
          tasks: [
            { text: "write tests", owner: null },
            { text: "ship", owner: "ana" },
          ],
        }),
      );
      const result = await fixture.client.utility({
        prompt: "plan it",
        schema: TASK_SCHEMA,
        effort: "high",
        cwd: fixture.cwd,
      });
      expect(result.value).toEqual({
        title: "Plan",
        tasks: [{ text: "write tests" }, { text: "ship", owner: "ana" }],
      });
      expect(result.terminal.structuredOutput).toEqual(result.value);
      expect(result.usage?.inputTokens).toBe(120);

      const body = firstRequestBody(fixture);
      expect(body.text).toMatchObject({
        format: {
          type: "json_schema",
          strict: true,
          name: "codex_output_schema",
          schema: TASK_SCHEMA_STRICT,
        },
      });
      expect((body.text as { format: { schema: unknown } }).format.schema).toEqual(
        prepareStructuredOutput(TASK_SCHEMA).outputSchema,
      );
      expectEffort(fixture, "high");
    },
  );

  it.skipIf(!caps.outputSchema)(
    `utilityStreamed puts the value on the terminal frame; without effort none is sent${needsOutputSchema}`,
    async () => {
      fixture = await startRealCodex(json({ title: "T", note: "kept", tasks: [] }, { chunks: 4 }));
      const { events, terminal } = await collect(
        fixture.client.utilityStreamed({ prompt: "x", schema: TASK_SCHEMA, cwd: fixture.cwd }),
      );
      expect(terminal.outcome).toBe("completed");
      expect(terminal.structuredOutput).toEqual({ title: "T", note: "kept", tasks: [] });
      expect(events.filter((e) => e.type === "text.delta").length).toBeGreaterThan(1);
      expectEffort(fixture, undefined);
      expect(firstRequestBody(fixture).text).toMatchObject({ format: { type: "json_schema", strict: true } });
    },
  );

  it.skipIf(!caps.outputSchema)(
    `a model answer that is not JSON ends the call with a parse failure${needsOutputSchema}`,
    async () => {
      fixture = await startRealCodex(rawText("not json"));
      const error = await fixture.client
        .utility({ prompt: "x", schema: TASK_SCHEMA, effort: "low", cwd: fixture.cwd })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TurnFailedError);
      const terminal = (error as TurnFailedError).terminal;
      expect(terminal.outcome).toBe("failed");
      expect(terminal.finalMessage).toBe("not json");
      expect(terminal.failure).toMatchObject({ source: "parse", line: "not json" });
      expect(terminal.failure?.message).toContain('it starts with: "not json"');
      expectEffort(fixture, "low");
    },
  );

  it.skipIf(!caps.outputSchema)(
    `a model answer that breaks the schema ends the call with a parse failure naming the violation${needsOutputSchema}`,
    async () => {
      fixture = await startRealCodex(json({ title: 7, note: null, tasks: [] }));
      const error = await fixture.client
        .utility({ prompt: "x", schema: TASK_SCHEMA, cwd: fixture.cwd })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(TurnFailedError);
      expect((error as TurnFailedError).terminal.failure).toMatchObject({
        source: "parse",
        errors: ["/title must be string"],
      });
    },
  );

  it("the agentic session on the same client sends neither an output schema nor an effort", async () => {
    fixture = await startRealCodex(text("plain answer"));
    const result = await fixture.client.run({ prompt: "x", cwd: fixture.cwd });
    expect(result.finalMessage).toBe("plain answer");
    expect(firstRequestBody(fixture)).not.toHaveProperty("text");
    expect(fixture.sent("turn/start")[0]).not.toHaveProperty("outputSchema");
    expectEffort(fixture, undefined);
  });
});
