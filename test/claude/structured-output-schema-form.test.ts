/**
 * The schema a Claude Code utility call puts on the command line (`--json-schema=…`) against the schema the caller
 * gave: Claude Code's own validator knows draft-07 only, so what it gets must be a form it takes, while the value
 * is still checked against the caller's schema as written.
 */
import { describe, expect, it } from "vitest";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import type { JsonSchemaObject } from "../../src/schema/json-schema.js";
import { claudeSteps } from "../../src/testkit/fake-claude-steps.js";
import { InMemoryClaude } from "../../src/testkit/in-memory-claude.js";

const ENV = { IS_SANDBOX: "1", PATH: process.env.PATH };

/** Runs one utility call against the fake claude answering `value`; the terminal and the schema it was given. */
async function utilityWith(schema: JsonSchemaObject, value: unknown) {
  const fake = new InMemoryClaude({
    turn: [claudeSteps.init(), claudeSteps.result({ structuredOutput: value })],
  });
  const claude = createClaudeCode({ launcher: fake.launcher, env: ENV });
  const terminal = await claude.utilityStreamed({ prompt: "hi", schema }).result;
  const argument = fake.launches[0]?.spec.args.find((arg) => arg.startsWith("--json-schema="));
  if (argument === undefined) throw new Error("claude was launched without --json-schema");
  const sent = JSON.parse(argument.slice("--json-schema=".length)) as JsonSchemaObject;
  return { terminal, sent };
}

describe("the schema Claude Code gets", () => {
  it.each([
    "https://json-schema.org/draft/2020-12/schema",
    "https://json-schema.org/draft/2019-09/schema",
    "http://json-schema.org/draft-07/schema#",
  ])(
    "a schema declaring $schema %s reaches Claude Code without it (it knows no dialect but draft-07, and exits on another's URI)",
    async ($schema) => {
      const schema = {
        $schema,
        type: "object",
        properties: { a: { $ref: "#/$defs/Name" } },
        required: ["a"],
        $defs: { Name: { type: "string" } },
      };
      const { terminal, sent } = await utilityWith(schema, { a: "x" });
      expect(terminal.outcome, JSON.stringify(terminal.failure)).toBe("completed");
      const { $schema: _dropped, ...rest } = schema;
      expect(sent).toEqual(rest);
      expect(schema.$schema).toBe($schema); // the caller's object is untouched
    },
  );

  it("the value is still checked in the dialect the caller declared (2020-12 dependentRequired)", async () => {
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      dependentRequired: { a: ["b"] },
    };
    const { terminal } = await utilityWith(schema, { a: 1 });
    expect(terminal.failure).toMatchObject({ source: "parse" });
    expect(JSON.stringify(terminal.failure)).toContain("b");
  });

  const item = { type: "object", properties: { a: { type: "string" } }, required: ["a"] } as const;

  it.each([
    ["properties without type", { properties: item.properties, required: ["a"] }, item],
    ['type ["object"]', { ...item, type: ["object"] }, item],
    [
      "a root $ref to an object definition (as zod-to-json-schema writes with a name)",
      { $ref: "#/definitions/Item", definitions: { Item: item } },
      { ...item, definitions: { Item: item } },
    ],
  ])(
    "a root Codex's utility call takes as an object (%s) reaches Claude Code as type object",
    async (_name, schema, expected) => {
      const { terminal, sent } = await utilityWith(schema, { a: "x" });
      expect(terminal.outcome, JSON.stringify(terminal.failure)).toBe("completed");
      expect(terminal.structuredOutput).toEqual({ a: "x" });
      expect(sent).toEqual(expected);
    },
  );

  it("a root $ref to a definition that is no object is SCHEMA_UNSUPPORTED naming what it found", () => {
    const claude = createClaudeCode({ launcher: new InMemoryClaude({ turn: [] }).launcher, env: ENV });
    const schema = { $ref: "#/$defs/S", $defs: { S: { type: "string" } } };
    expect(() => claude.utilityStreamed({ prompt: "hi", schema })).toThrow(
      expect.objectContaining({
        code: "SCHEMA_UNSUPPORTED",
        message: expect.stringContaining('the root must be type "object" (found "string")'),
      }),
    );
  });
});
