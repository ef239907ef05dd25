import { describe, expect, test } from "vitest";
import { denormalizeValue } from "../../src/codex/schema/denormalize.js";
import type { JsonSchemaObject } from "../../src/schema/json-schema.js";
import { compileSchemaValidator, InvalidSchemaError } from "../../src/schema/schema-validator.js";
import { parseStructuredOutput, prepareStructuredOutput } from "../../src/codex/schema/structured-output.js";
import { UnsupportedSchemaError } from "../../src/schema/unsupported-schema-error.js";
import { thrownBy } from "../helpers/thrown.js";

const TASKS: JsonSchemaObject = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object",
  properties: {
    title: { type: "string" },
    note: { type: ["string", "null"] },
    priority: { enum: ["low", "high"] },
    owner: { $ref: "#/$defs/Person" },
    tasks: { type: "array", items: { $ref: "#/$defs/Task" } },
  },
  required: ["title", "tasks"],
  additionalProperties: false,
  $defs: {
    Person: {
      type: "object",
      properties: { name: { type: "string" }, email: { type: "string" } },
      required: ["name"],
      additionalProperties: false,
    },
    Task: {
      type: "object",
      properties: {
        text: { type: "string" },
        due: { type: "string" },
        subtasks: { type: "array", items: { $ref: "#/$defs/Task" } },
      },
      required: ["text"],
      additionalProperties: false,
    },
  },
};

describe("denormalizeValue", () => {
  const { plan } = prepareStructuredOutput(TASKS);

  test("drops nulls of optional properties, recursively through arrays and recursive $refs", () => {
    const answer = {
      title: "Plan",
      note: null,
      priority: null,
      owner: { name: "Ada", email: null },
      tasks: [
        { text: "a", due: null, subtasks: [{ text: "a.1", due: "mon", subtasks: null }] },
        { text: "b", due: null, subtasks: null },
      ],
    };
    const frozen = structuredClone(answer);
    expect(denormalizeValue(answer, plan)).toEqual({
      title: "Plan",
      // optional and nullable in the caller's schema: the null is kept (documented choice)
      note: null,
      owner: { name: "Ada" },
      tasks: [{ text: "a", subtasks: [{ text: "a.1", due: "mon" }] }, { text: "b" }],
    });
    expect(answer).toEqual(frozen);
  });

  test("a null in a required property is left for the validator to report", () => {
    const answer = { title: null, note: null, priority: null, owner: null, tasks: [] };
    expect(denormalizeValue(answer, plan)).toEqual({ title: null, note: null, tasks: [] });
  });

  test("anyOf: the branch whose strict shape matches decides which nulls are dropped", () => {
    const schema: JsonSchemaObject = {
      type: "object",
      properties: {
        shape: {
          anyOf: [
            {
              type: "object",
              properties: { radius: { type: "number" }, label: { type: "string" } },
              required: ["radius"],
            },
            {
              type: "object",
              properties: { width: { type: "number" }, label: { type: ["string", "null"] } },
              required: ["width"],
            },
          ],
        },
      },
      required: ["shape"],
    };
    const { plan: anyOfPlan } = prepareStructuredOutput(schema);
    expect(denormalizeValue({ shape: { radius: 1, label: null } }, anyOfPlan)).toEqual({
      shape: { radius: 1 },
    });
    // The second branch accepts a null label, so it stays.
    expect(denormalizeValue({ shape: { width: 2, label: null } }, anyOfPlan)).toEqual({
      shape: { width: 2, label: null },
    });
  });

  test("values that match no branch and non-objects pass through unchanged", () => {
    expect(denormalizeValue("text", plan)).toBe("text");
    expect(denormalizeValue([1, 2], plan)).toEqual([1, 2]);
    expect(denormalizeValue({ unknown: null }, plan)).toEqual({ unknown: null });
  });
});

describe("parseStructuredOutput", () => {
  const { plan, originalSchema } = prepareStructuredOutput(TASKS);

  test("valid answer: parsed, mapped back, validated", () => {
    const text = JSON.stringify({
      title: "T",
      note: "n",
      priority: "low",
      owner: null,
      tasks: [{ text: "x", due: null, subtasks: [] }],
    });
    expect(parseStructuredOutput(text, originalSchema, plan)).toEqual({
      ok: true,
      value: { title: "T", note: "n", priority: "low", tasks: [{ text: "x", subtasks: [] }] },
    });
  });

  test("non-JSON text: the JSON error and the start of the text", () => {
    const result = parseStructuredOutput(
      'Sure! Here is the JSON you asked for: {"title": 1}',
      originalSchema,
      plan,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toBe("not-json");
    expect(result.errors).toHaveLength(1);
    expect(result.message).toMatch(
      /^The final message is not valid JSON \(.*Unexpected token.*\); it starts with: "Sure! Here is/,
    );
    expect(result.excerpt).toBe('Sure! Here is the JSON you asked for: {"title": 1}');
  });

  test("fenced JSON is not accepted (strict mode answers are bare JSON)", () => {
    const result = parseStructuredOutput('```json\n{"title":"T","tasks":[]}\n```', originalSchema, plan);
    expect(result).toMatchObject({ ok: false, reason: "not-json" });
  });

  test("empty text and a missing final message", () => {
    expect(parseStructuredOutput("", originalSchema, plan)).toMatchObject({
      ok: false,
      reason: "not-json",
      excerpt: "",
    });
    const missing = parseStructuredOutput(null, originalSchema, plan);
    expect(missing).toMatchObject({ ok: false, reason: "no-message" });
    if (!missing.ok) expect(missing.message).toContain("without a final message");
  });

  test("schema violation: names instancePath and message of the violations", () => {
    const text = JSON.stringify({
      title: 5,
      note: null,
      priority: "urgent",
      owner: { name: "A", email: null, age: 3 },
      tasks: [{ text: 1 }],
    });
    const result = parseStructuredOutput(text, originalSchema, plan);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toBe("schema-violation");
    expect(result.errors).toEqual(
      expect.arrayContaining([
        "/title must be string",
        '/priority must be equal to one of the allowed values ["low","high"]',
        '/owner must NOT have additional properties ("age")',
        "/tasks/0/text must be string",
      ]),
    );
    expect(result.message).toMatch(
      /^The final message does not match the output schema: \/title must be string; /,
    );
    expect(result.message).toContain(`it starts with: ${JSON.stringify(text)}`);
  });

  test("missing required property is reported at the root", () => {
    const result = parseStructuredOutput("{}", originalSchema, plan);
    expect(result).toMatchObject({ ok: false, reason: "schema-violation" });
    if (!result.ok) {
      expect(result.errors).toContain("(root) must have required property 'title'");
    }
  });

  test("at most five violations in the message, the rest counted; long text quoted truncated", () => {
    const schema: JsonSchemaObject = {
      type: "object",
      properties: { items: { type: "array", items: { type: "integer" } } },
      required: ["items"],
    };
    const prepared = prepareStructuredOutput(schema);
    const items = Array.from({ length: 8 }, (_, index) => `value-${index}-${"x".repeat(30)}`);
    const text = JSON.stringify({ items });
    const result = parseStructuredOutput(text, prepared.originalSchema, prepared.plan);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toHaveLength(8);
    expect(result.message).toContain("/items/4 must be integer (+3 more)");
    expect(result.message).not.toContain("/items/5 must be integer");
    const start = `${text.slice(0, 200)}… (${text.length - 200} more chars)`;
    expect(result.excerpt).toBe(start);
    expect(result.message.endsWith(`it starts with: ${JSON.stringify(start)}`)).toBe(true);
  });

  test("constraints removed from the strict schema are still enforced against the original", () => {
    const schema: JsonSchemaObject = {
      type: "object",
      properties: {
        code: { type: "string", minLength: 3 },
        ids: { type: "array", items: { type: "integer" }, uniqueItems: true },
      },
      required: ["code", "ids"],
    };
    const prepared = prepareStructuredOutput(schema);
    expect(JSON.stringify(prepared.outputSchema)).not.toContain('"minLength"');
    const result = parseStructuredOutput('{"code":"ab","ids":[1,1]}', prepared.originalSchema, prepared.plan);
    expect(result).toMatchObject({ ok: false, reason: "schema-violation" });
    if (!result.ok) {
      expect(result.errors).toContain("/code must NOT have fewer than 3 characters");
      expect(result.errors.some((error) => error.startsWith("/ids must NOT have duplicate items"))).toBe(
        true,
      );
    }
  });
});

describe("validator selection and caching", () => {
  const base = {
    type: "object",
    properties: { a: { type: "string" }, b: { type: "string" } },
    dependentRequired: { a: ["b"] },
  } as const;

  test("$schema 2020-12 uses the 2020-12 validator (dependentRequired enforced)", () => {
    const schema: JsonSchemaObject = { $schema: "https://json-schema.org/draft/2020-12/schema", ...base };
    const prepared = prepareStructuredOutput(schema);
    const result = parseStructuredOutput('{"a":"x","b":null}', schema, prepared.plan);
    expect(result).toMatchObject({ ok: false, reason: "schema-violation" });
    if (!result.ok) expect(result.errors).toContain("(root) must have property b when property a is present");
  });

  test("no $schema uses the draft-07 validator (dependentRequired is not a draft-07 keyword)", () => {
    const schema: JsonSchemaObject = { ...base };
    const prepared = prepareStructuredOutput(schema);
    expect(parseStructuredOutput('{"a":"x","b":null}', schema, prepared.plan)).toEqual({
      ok: true,
      value: { a: "x" },
    });
  });

  test("draft-07 $schema with https and without the trailing # is accepted", () => {
    expect(() =>
      compileSchemaValidator({
        $schema: "https://json-schema.org/draft-07/schema",
        type: "object",
        properties: {},
      }),
    ).not.toThrow();
  });

  test("one compiled validator per schema object", () => {
    const schema: JsonSchemaObject = { type: "object", properties: { a: { type: "string" } } };
    expect(compileSchemaValidator(schema)).toBe(compileSchemaValidator(schema));
    expect(compileSchemaValidator({ ...schema })).not.toBe(compileSchemaValidator(schema));
  });

  test("two schemas with the same $id do not clash", () => {
    const one: JsonSchemaObject = {
      $id: "https://example.test/s",
      type: "object",
      properties: { a: { type: "string" } },
    };
    const two: JsonSchemaObject = {
      $id: "https://example.test/s",
      type: "object",
      properties: { a: { type: "integer" } },
    };
    expect(compileSchemaValidator(one)({ a: "x" })).toBe(true);
    expect(compileSchemaValidator(two)({ a: "x" })).toBe(false);
  });
});

describe("prepareStructuredOutput errors", () => {
  test("an invalid JSON Schema is SCHEMA_INVALID naming each JSON path, the bad value and the fix", () => {
    const attempt = () =>
      prepareStructuredOutput({
        type: "object",
        properties: {
          a: { type: "strnig" },
          tags: { type: "array", items: { type: "string", minLength: "3" } },
        },
        required: "a",
      });
    const error = thrownBy(attempt);
    expect(error).toBeInstanceOf(InvalidSchemaError);
    expect((error as InvalidSchemaError).code).toBe("SCHEMA_INVALID");
    expect((error as Error).message).toBe(
      "Output schema is not a valid JSON Schema: " +
        'at /required: "a" must be array; ' +
        'at /properties/a/type: "strnig" is not one of "array", "boolean", "integer", "null", "number", ' +
        '"object", "string" (did you mean "string"?); ' +
        'at /properties/tags/items/minLength: "3" must be integer; fix the schema',
    );
    expect((error as InvalidSchemaError).issues).toContainEqual({
      path: "/properties/a/type",
      value: "strnig",
      message: expect.stringContaining('did you mean "string"?'),
    });
  });

  test("an unsupported $schema dialect is SCHEMA_INVALID with the fix", () => {
    expect(() =>
      prepareStructuredOutput({
        $schema: "http://json-schema.org/draft-04/schema#",
        type: "object",
        properties: {},
      }),
    ).toThrow(/\$schema "http:\/\/json-schema.org\/draft-04\/schema#" is not supported; declare draft-07/);
  });

  test("an unresolvable $ref is SCHEMA_INVALID (caught by the validator before normalization)", () => {
    expect(() =>
      prepareStructuredOutput({ type: "object", properties: { a: { $ref: "#/$defs/Nope" } } }),
    ).toThrow(InvalidSchemaError);
  });

  test("a valid schema strict mode cannot express is SCHEMA_UNSUPPORTED", () => {
    expect(() =>
      prepareStructuredOutput({ type: "object", properties: { a: { oneOf: [{ type: "string" }] } } }),
    ).toThrow(UnsupportedSchemaError);
  });

  test("a non-object schema is SCHEMA_INVALID", () => {
    expect(() => prepareStructuredOutput(null as unknown as JsonSchemaObject)).toThrow(InvalidSchemaError);
  });
});
