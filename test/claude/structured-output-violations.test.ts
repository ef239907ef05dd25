/**
 * A Claude Code value that Rennet's own check refuses (Claude Code validates with its own draft-07 validator, so
 * e.g. a 2020-12 keyword is Rennet's alone to enforce) is reported as a Codex utility answer breaking the same
 * schema is: the same `errors` and the same `line`, so an app reads one failure shape whichever agent it runs.
 */
import { describe, expect, it } from "vitest";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import { parseStructuredOutput, prepareStructuredOutput } from "../../src/codex/schema/structured-output.js";
import type { JsonSchemaObject } from "../../src/schema/json-schema.js";
import { claudeSteps } from "../../src/testkit/fake-claude-steps.js";
import { InMemoryClaude } from "../../src/testkit/in-memory-claude.js";

const ENV = { IS_SANDBOX: "1", PATH: process.env.PATH };

async function claudeFailure(schema: JsonSchemaObject, value: unknown) {
  const fake = new InMemoryClaude({
    turn: [claudeSteps.init(), claudeSteps.result({ structuredOutput: value })],
  });
  const claude = createClaudeCode({ launcher: fake.launcher, env: ENV });
  return (await claude.utilityStreamed({ prompt: "hi", schema }).result).failure;
}

function codexFailure(schema: JsonSchemaObject, value: unknown) {
  const prepared = prepareStructuredOutput(schema);
  const parsed = parseStructuredOutput(JSON.stringify(value), prepared.originalSchema, prepared.plan);
  if (parsed.ok) throw new Error("the Codex check took the value");
  return parsed;
}

describe("a structured-output value Rennet refuses, on Claude Code as on Codex", () => {
  it("names the same violations (the extra key, the allowed values) and quotes the value's start alike", async () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        kind: { enum: ["bug", "task"] },
        note: { type: "string" },
        tags: { type: "array", items: { type: "string" } },
      },
      required: ["kind", "note", "tags"],
      additionalProperties: false,
    } as const;
    const value = { kind: "epic", note: "n".repeat(300), tags: [1, 2, 3, 4, 5, 6], extra: true };
    const failure = await claudeFailure(schema, value);
    const codex = codexFailure(schema, value);
    expect(failure).toMatchObject({ source: "parse", errors: codex.errors, line: codex.excerpt });
    expect(codex.errors).toContain('(root) must NOT have additional properties ("extra")');
    expect(failure?.message).toContain("(+");
  });
});
