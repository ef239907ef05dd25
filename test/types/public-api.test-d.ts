/**
 * Type-level tests of the public API (vitest typecheck mode: `tsc` checks this file, `npm test` runs it in the
 * hermetic project). Each `expectTypeOf` fails the suite when a type drifts.
 */
import { describe, expectTypeOf, it } from "vitest";
import {
  createClaudeCode,
  createCodex,
  type Cancellation,
  type Conversation,
  type TurnResult,
  type Failure,
  type HarnessEvent,
  type HarnessSession,
  type InferSchema,
  type JsonSchemaObject,
  type TerminalEvent,
  type UtilityResult,
  type SchemaIssue,
  type UnsupportedSchemaError,
  type UnsupportedSchemaIssue,
  type InvalidSchemaError,
} from "../../src/index.js";

const codex = createCodex();

describe("TerminalEvent is a union on outcome", () => {
  it("narrows failure and cancellation by outcome", () => {
    const t = {} as TerminalEvent;
    if (t.outcome === "failed") {
      expectTypeOf(t.failure).toEqualTypeOf<Failure>();
      expectTypeOf(t.failure.message).toEqualTypeOf<string>();
      expectTypeOf(t.cancellation).toEqualTypeOf<null>();
    } else if (t.outcome === "cancelled") {
      expectTypeOf(t.cancellation).toEqualTypeOf<Cancellation>();
      expectTypeOf(t.failure).toEqualTypeOf<null>();
    } else {
      expectTypeOf(t.outcome).toEqualTypeOf<"completed">();
      expectTypeOf(t.failure).toEqualTypeOf<null>();
      expectTypeOf(t.cancellation).toEqualTypeOf<null>();
    }
  });

  it("narrows from the event stream, and the failure by source", () => {
    const event = {} as HarnessEvent;
    if (event.type === "terminal" && event.outcome === "failed" && event.failure.source === "exit") {
      expectTypeOf(event.failure.exitCode).toEqualTypeOf<number | null>();
      expectTypeOf(event.failure.stderrTail).toEqualTypeOf<string>();
    }
  });

  it("refuses a failed frame without a failure", () => {
    // @ts-expect-error a failed terminal frame carries its failure
    const bad: TerminalEvent = { ...({} as Extract<TerminalEvent, { outcome: "failed" }>), failure: null };
    void bad;
  });
});

describe("utility infers the value from the schema", () => {
  it("from a schema written inline", async () => {
    const result = await codex.utility({
      prompt: "review",
      schema: {
        type: "object",
        properties: {
          verdict: { type: "string", enum: ["approve", "reject"] },
          score: { type: "integer" },
          note: { type: ["string", "null"] },
          tags: { type: "array", items: { type: "string" } },
          detail: { type: "object", properties: { file: { type: "string" } }, required: ["file"] },
        },
        required: ["verdict", "score", "tags"],
        additionalProperties: false,
      },
    });
    expectTypeOf(result.value).toEqualTypeOf<{
      verdict: "approve" | "reject";
      score: number;
      tags: string[];
      note?: string | null;
      detail?: { file: string };
    }>();
  });

  it("from a schema declared as const", async () => {
    const schema = {
      type: "object",
      properties: { ok: { type: "boolean" }, level: { const: 3 } },
      required: ["ok", "level"],
    } as const;
    const { value } = await codex.utility({ prompt: "check", schema });
    expectTypeOf(value).toEqualTypeOf<{ ok: boolean; level: 3 }>();
    expectTypeOf<InferSchema<typeof schema>>().toEqualTypeOf<{ ok: boolean; level: 3 }>();
  });

  it("takes an explicit T over the schema", async () => {
    interface Review {
      verdict: string;
    }
    const schema: JsonSchemaObject = { type: "object", properties: { verdict: { type: "string" } } };
    const result = await codex.utility<Review>({ prompt: "review", schema });
    expectTypeOf(result).toEqualTypeOf<UtilityResult<Review>>();
  });

  it("is unknown for a schema held in a wider type", async () => {
    const schema: JsonSchemaObject = { type: "object" };
    const { value } = await codex.utility({ prompt: "x", schema });
    expectTypeOf(value).toBeUnknown();
    expectTypeOf<InferSchema<any>>().toBeUnknown(); // eslint-disable-line @typescript-eslint/no-explicit-any
  });
});

describe("options", () => {
  it("refuses an unknown key at compile time too", () => {
    // @ts-expect-error workingDirectory is the Codex SDK's name: Rennet's is cwd
    void codex.run({ prompt: "x", workingDirectory: "/repo" });
    // @ts-expect-error codexPath is not an option of createCodex: the path goes in `codex`
    void createCodex({ codexPath: "/usr/local/bin/codex" });
  });
});

describe("a conversation", () => {
  it("has the same shape on both clients: switching agent changes one call", async () => {
    const agent = Math.random() > 0.5 ? createCodex() : createClaudeCode();
    const chat = agent.conversation({ cwd: "/repo", model: "m", threadId: undefined });
    expectTypeOf(chat).toEqualTypeOf<Conversation>();
    expectTypeOf(createClaudeCode().conversation()).toEqualTypeOf<Conversation>();
    expectTypeOf(
      await chat.run("go", { signal: AbortSignal.timeout(1), images: [] }),
    ).toEqualTypeOf<TurnResult>();
    expectTypeOf(chat.threadId).toEqualTypeOf<string | null>();
    const session = chat.runStreamed("go", { signal: AbortSignal.timeout(1), images: [] });
    expectTypeOf(session).toEqualTypeOf<HarnessSession>();
    expectTypeOf(await session.result).toEqualTypeOf<TerminalEvent>();
  });

  it("refuses, at compile time too, the options it owns or takes per turn", () => {
    // @ts-expect-error a conversation keeps its thread itself
    void createClaudeCode().conversation({ keepThread: true });
    // @ts-expect-error a conversation continues a thread given as threadId
    void createClaudeCode().conversation({ resume: "x" });
    // @ts-expect-error images go with one turn: chat.run(prompt, { images })
    void createClaudeCode().conversation({ images: [] });
    // @ts-expect-error a conversation keeps its thread itself
    void createCodex().conversation({ ephemeral: false });
  });
});

describe("the issues of the two schema errors", () => {
  it("have their own exported types, each named once", () => {
    expectTypeOf<InvalidSchemaError["issues"]>().toEqualTypeOf<readonly SchemaIssue[]>();
    expectTypeOf<UnsupportedSchemaError["issues"]>().toEqualTypeOf<readonly UnsupportedSchemaIssue[]>();
  });
});
