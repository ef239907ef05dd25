import AjvModule from "ajv";
import { describe, expect, test } from "vitest";
import { denormalizeValue } from "../../src/codex/schema/denormalize.js";
import type { JsonSchemaObject } from "../../src/schema/json-schema.js";
import { compileSchemaValidator } from "../../src/schema/schema-validator.js";
import { STRICT_MODE_FORMATS } from "../../src/codex/schema/strict-keywords.js";
import { normalizeSchemaForStrictMode } from "../../src/codex/schema/strict-schema.js";
import { parseStructuredOutput } from "../../src/codex/schema/structured-output.js";
import { UnsupportedSchemaError } from "../../src/schema/unsupported-schema-error.js";

const Ajv = AjvModule.default;

const ALLOWED_KEYWORDS = new Set([
  "type",
  "properties",
  "required",
  "additionalProperties",
  "items",
  "anyOf",
  "enum",
  "const",
  "$ref",
  "title",
  "description",
  "pattern",
  "format",
  "multipleOf",
  "minimum",
  "maximum",
  "exclusiveMinimum",
  "exclusiveMaximum",
  "minItems",
  "maxItems",
]);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Walks a strict schema and throws on anything OpenAI strict mode would refuse. */
function assertStrictInvariants(root: JsonSchemaObject): void {
  expect(root.type, "root type").toBe("object");
  expect(root.anyOf, "root anyOf").toBeUndefined();
  const defs: Record<string, unknown> = {};
  for (const container of ["$defs", "definitions"]) {
    const entries = root[container];
    if (entries === undefined) continue;
    expect(isObject(entries)).toBe(true);
    for (const [name, def] of Object.entries(entries as Record<string, unknown>))
      defs[`#/${container}/${name}`] = def;
  }
  const walk = (schema: unknown, pointer: string): void => {
    if (!isObject(schema)) throw new Error(`${pointer}: not a schema object`);
    for (const keyword of Object.keys(schema)) {
      const rootOnly = pointer === "#" && (keyword === "$defs" || keyword === "definitions");
      if (!ALLOWED_KEYWORDS.has(keyword) && !rootOnly)
        throw new Error(`${pointer}: keyword ${keyword} not allowed`);
    }
    if (schema.$ref !== undefined) {
      expect(Object.keys(schema), `${pointer}: $ref alone`).toEqual(["$ref"]);
      const ref = schema.$ref as string;
      if (ref !== "#" && !(ref in defs)) throw new Error(`${pointer}: $ref ${ref} does not resolve`);
      return;
    }
    if (schema.type === undefined && schema.anyOf === undefined) throw new Error(`${pointer}: no type`);
    const types = schema.type === undefined ? [] : Array.isArray(schema.type) ? schema.type : [schema.type];
    if (types.includes("object")) {
      if (!isObject(schema.properties)) throw new Error(`${pointer}: object without properties`);
      expect(schema.additionalProperties, `${pointer}: additionalProperties`).toBe(false);
      expect([...(schema.required as string[])].sort(), `${pointer}: required`).toEqual(
        Object.keys(schema.properties).sort(),
      );
      for (const [name, child] of Object.entries(schema.properties))
        walk(child, `${pointer}/properties/${name}`);
    } else {
      expect(schema.properties, `${pointer}: properties without object type`).toBeUndefined();
    }
    if (types.includes("array")) walk(schema.items, `${pointer}/items`);
    if (schema.format !== undefined) expect(STRICT_MODE_FORMATS.has(schema.format as string)).toBe(true);
    if (schema.anyOf !== undefined) {
      expect(Array.isArray(schema.anyOf) && schema.anyOf.length > 0).toBe(true);
      (schema.anyOf as unknown[]).forEach((branch, index) => walk(branch, `${pointer}/anyOf/${index}`));
    }
  };
  walk(root, "#");
  for (const [pointer, def] of Object.entries(defs)) walk(def, pointer);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Normalizes a frozen copy (so any mutation throws), checks the invariants and that the input is unchanged. */
function normalize(schema: JsonSchemaObject) {
  const before = structuredClone(schema);
  const frozen = deepFreeze(structuredClone(schema));
  const result = normalizeSchemaForStrictMode(frozen);
  expect(frozen).toEqual(before);
  assertStrictInvariants(result.schema);
  return result;
}

function unsupported(schema: unknown): UnsupportedSchemaError {
  try {
    normalizeSchemaForStrictMode(deepFreeze(schema) as JsonSchemaObject);
  } catch (error) {
    expect(error).toBeInstanceOf(UnsupportedSchemaError);
    const typed = error as UnsupportedSchemaError;
    expect(typed.code).toBe("SCHEMA_UNSUPPORTED");
    for (const issue of typed.issues) expect(typed.message).toContain(`at ${issue.pointer}:`);
    return typed;
  }
  throw new Error("expected UnsupportedSchemaError");
}

describe("normalizeSchemaForStrictMode", () => {
  test("a property or definition named __proto__ stays an own entry of the strict schema and the plan", () => {
    const schema = JSON.parse(
      '{"type":"object","$defs":{"__proto__":{"type":"string"}},"properties":{"__proto__":{"type":"string"},"a":{"$ref":"#/$defs/__proto__"}},"required":["a"]}',
    ) as JsonSchemaObject;
    const { schema: strict, plan } = normalize(schema);
    expect(JSON.stringify(strict)).toBe(
      '{"type":"object","properties":{"__proto__":{"type":["string","null"]},"a":{"$ref":"#/$defs/__proto__"}},' +
        '"required":["__proto__","a"],"additionalProperties":false,"$defs":{"__proto__":{"type":"string"}}}',
    );
    expect(Object.getPrototypeOf(strict.properties)).toBe(Object.prototype);
    const answer = parseStructuredOutput('{"__proto__":null,"a":"x"}', schema, plan);
    expect(answer).toMatchObject({ ok: true });
    expect(answer.ok && Object.keys(answer.value as object)).toEqual(["a"]);
  });

  test("optional properties become required and nullable; required ones keep their type", () => {
    const { schema, plan } = normalize({
      type: "object",
      properties: {
        name: { type: "string", description: "who" },
        age: { type: "integer", minimum: 0 },
        score: { type: ["number", "boolean"] },
      },
      required: ["name"],
    });
    expect(schema).toEqual({
      type: "object",
      properties: {
        name: { description: "who", type: "string" },
        age: { type: ["integer", "null"], minimum: 0 },
        score: { type: ["number", "boolean", "null"] },
      },
      required: ["name", "age", "score"],
      additionalProperties: false,
    });
    expect(plan.root.properties?.name?.dropNull).toBe(false);
    expect(plan.root.properties?.age?.dropNull).toBe(true);
    expect(plan.root.properties?.score?.dropNull).toBe(true);
  });

  test("nested objects and arrays of objects are normalized recursively", () => {
    const { schema, plan } = normalize({
      type: "object",
      properties: {
        owner: {
          type: "object",
          properties: { id: { type: "string" }, email: { type: "string", format: "email" } },
          required: ["id"],
        },
        tags: { type: "array", items: { type: "string" } },
        steps: {
          type: "array",
          minItems: 1,
          items: {
            type: "object",
            properties: { text: { type: "string" }, done: { type: "boolean" } },
            required: ["text"],
          },
        },
      },
      required: ["steps"],
    });
    const properties = schema.properties as Record<string, JsonSchemaObject>;
    expect(properties.owner).toEqual({
      anyOf: [
        {
          type: "object",
          properties: { id: { type: "string" }, email: { type: ["string", "null"], format: "email" } },
          required: ["id", "email"],
          additionalProperties: false,
        },
        { type: "null" },
      ],
    });
    expect(properties.tags).toEqual({
      anyOf: [{ type: "array", items: { type: "string" } }, { type: "null" }],
    });
    expect(properties.steps).toEqual({
      type: "array",
      minItems: 1,
      items: {
        type: "object",
        properties: { text: { type: "string" }, done: { type: ["boolean", "null"] } },
        required: ["text", "done"],
        additionalProperties: false,
      },
    });
    expect(plan.root.properties?.steps?.node.items?.properties?.done?.dropNull).toBe(true);
    expect(plan.root.properties?.owner?.node.properties?.email?.dropNull).toBe(true);
  });

  test("enums and consts: type inferred, optional ones wrapped in anyOf with null", () => {
    const { schema } = normalize({
      type: "object",
      properties: {
        level: { enum: ["low", "high"], description: "how much" },
        mode: { type: "string", enum: ["a", "b"] },
        version: { const: 2 },
        kind: { const: "fixed" },
      },
      required: ["kind"],
    });
    expect(schema.properties).toEqual({
      level: {
        description: "how much",
        anyOf: [{ type: "string", enum: ["low", "high"] }, { type: "null" }],
      },
      mode: { anyOf: [{ type: "string", enum: ["a", "b"] }, { type: "null" }] },
      version: { anyOf: [{ type: "number", const: 2 }, { type: "null" }] },
      kind: { type: "string", const: "fixed" },
    });
  });

  test("already-nullable optional properties are not wrapped twice and keep their nulls", () => {
    const { schema, plan } = normalize({
      type: "object",
      properties: {
        a: { type: ["string", "null"] },
        b: { anyOf: [{ type: "string" }, { type: "null" }] },
        c: { type: ["string", "null"], enum: ["x", null] },
        d: { anyOf: [{ type: "integer" }, { type: "string" }] },
        e: { type: ["string", "null"], enum: ["x", "y"] },
      },
    });
    expect(schema.properties).toEqual({
      a: { type: ["string", "null"] },
      b: { anyOf: [{ type: "string" }, { type: "null" }] },
      c: { type: ["string", "null"], enum: ["x", null] },
      // anyOf without a null branch gets one appended, not a second level of anyOf.
      d: { anyOf: [{ type: "integer" }, { type: "string" }, { type: "null" }] },
      // type admits null but the enum does not: the schema rejects null, so it is wrapped.
      e: { anyOf: [{ type: ["string", "null"], enum: ["x", "y"] }, { type: "null" }] },
    });
    expect(schema.required).toEqual(["a", "b", "c", "d", "e"]);
    const drop = Object.fromEntries(
      Object.entries(plan.root.properties ?? {}).map(([name, p]) => [name, p.dropNull]),
    );
    expect(drop).toEqual({ a: false, b: false, c: false, d: true, e: true });
  });

  test("$defs and $ref: definitions normalized in place, optional refs nullable, recursion allowed", () => {
    const { schema, plan } = normalize({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      properties: {
        root: { $ref: "#/$defs/Node", description: "dropped next to $ref" },
        extra: { $ref: "#/$defs/Node" },
        label: { $ref: "#/$defs/MaybeLabel" },
      },
      required: ["root"],
      $defs: {
        Node: {
          type: "object",
          properties: {
            value: { type: "number" },
            children: { type: "array", items: { $ref: "#/$defs/Node" } },
          },
          required: ["value"],
        },
        MaybeLabel: { type: ["string", "null"] },
      },
    });
    expect(schema.$schema).toBeUndefined();
    expect(schema.properties).toEqual({
      root: { $ref: "#/$defs/Node" },
      extra: { anyOf: [{ $ref: "#/$defs/Node" }, { type: "null" }] },
      label: { $ref: "#/$defs/MaybeLabel" },
    });
    expect((schema.$defs as Record<string, unknown>).Node).toEqual({
      type: "object",
      properties: {
        value: { type: "number" },
        children: { anyOf: [{ type: "array", items: { $ref: "#/$defs/Node" } }, { type: "null" }] },
      },
      required: ["value", "children"],
      additionalProperties: false,
    });
    expect(plan.root.properties?.extra?.dropNull).toBe(true);
    expect(plan.root.properties?.label?.dropNull).toBe(false);
    expect(plan.definitions["#/$defs/Node"]?.properties?.children?.node.items).toEqual({
      ref: "#/$defs/Node",
    });
  });

  test("draft-07 definitions and a root that only refers to a definition (inlined)", () => {
    const { schema, plan } = normalize({
      $schema: "http://json-schema.org/draft-07/schema#",
      $ref: "#/definitions/Answer",
      definitions: {
        Answer: {
          type: "object",
          properties: { text: { type: "string" }, parent: { $ref: "#/definitions/Answer" } },
        },
      },
    });
    expect(schema.type).toBe("object");
    expect(schema.properties).toEqual({
      text: { type: ["string", "null"] },
      parent: { anyOf: [{ $ref: "#/definitions/Answer" }, { type: "null" }] },
    });
    expect(schema.definitions).toBeDefined();
    expect(plan.root).toEqual({ ref: "#/definitions/Answer" });
  });

  test("root recursion through $ref '#'", () => {
    const { schema } = normalize({
      type: "object",
      properties: { name: { type: "string" }, children: { type: "array", items: { $ref: "#" } } },
      required: ["name", "children"],
    });
    expect((schema.properties as Record<string, unknown>).children).toEqual({
      type: "array",
      items: { $ref: "#" },
    });
  });

  test("constraints strict mode cannot enforce are removed and stated in the description; annotations dropped", () => {
    const { schema } = normalize({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      $id: "https://example.test/s",
      $comment: "x",
      type: "object",
      properties: {
        code: {
          type: "string",
          minLength: 3,
          maxLength: 8,
          pattern: "^[A-Z]+$",
          default: "ABC",
          examples: ["XYZ"],
        },
        link: { type: "string", format: "uri", description: "Where." },
        when: { type: "string", format: "date-time" },
        ids: { type: "array", items: { type: "integer" }, uniqueItems: true, maxItems: 3 },
        other: { type: "string", not: { const: "no" } },
      },
      required: ["code", "link", "when", "ids", "other"],
    });
    expect(schema.properties).toEqual({
      code: { type: "string", pattern: "^[A-Z]+$", description: "Must satisfy: minLength=3, maxLength=8." },
      link: { description: 'Where. Must satisfy: format="uri".', type: "string" },
      when: { type: "string", format: "date-time" },
      ids: {
        type: "array",
        maxItems: 3,
        items: { type: "integer" },
        description: "Must satisfy: uniqueItems=true.",
      },
      other: { type: "string", description: 'Must satisfy: not={"const":"no"}.' },
    });
    expect(Object.keys(schema)).not.toContain("$id");
  });

  test("an optional property with `not` is treated as rejecting null (null answers are dropped)", () => {
    const { schema, plan } = normalize({
      type: "object",
      properties: { a: { type: ["string", "null"], not: { type: "null" } } },
    });
    expect((schema.properties as Record<string, unknown>).a).toEqual({
      type: ["string", "null"],
      description: 'Must satisfy: not={"type":"null"}.',
    });
    expect(plan.root.properties?.a?.dropNull).toBe(true);
  });

  test("an empty object is allowed only when additionalProperties is false", () => {
    const { schema } = normalize({
      type: "object",
      properties: { empty: { type: "object", additionalProperties: false } },
      required: ["empty"],
    });
    expect((schema.properties as Record<string, unknown>).empty).toEqual({
      type: "object",
      properties: {},
      required: [],
      additionalProperties: false,
    });
  });

  const rejected: { name: string; schema: unknown; pointer: string; mentions: string }[] = [
    {
      name: "oneOf",
      schema: { type: "object", properties: { a: { oneOf: [{ type: "string" }, { type: "integer" }] } } },
      pointer: "#/properties/a",
      mentions: "use anyOf",
    },
    {
      name: "allOf",
      schema: { type: "object", properties: { a: { allOf: [{ type: "string" }] } } },
      pointer: "#/properties/a",
      mentions: "merge",
    },
    {
      name: "if/then/else",
      schema: {
        type: "object",
        properties: { a: { type: "string", if: { const: "x" }, then: { const: "x" } } },
      },
      pointer: "#/properties/a",
      mentions: "if/then/else",
    },
    {
      name: "patternProperties",
      schema: {
        type: "object",
        properties: { a: { type: "string" } },
        patternProperties: { "^x": { type: "string" } },
      },
      pointer: "#",
      mentions: "{key, value}",
    },
    {
      name: "additionalProperties: true",
      schema: { type: "object", properties: { a: { type: "string" } }, additionalProperties: true },
      pointer: "#",
      mentions: "remove it",
    },
    {
      name: "additionalProperties: schema",
      schema: {
        type: "object",
        properties: { m: { type: "object", additionalProperties: { type: "number" } } },
      },
      pointer: "#/properties/m",
      mentions: "array of {key, value}",
    },
    {
      name: "free-form object",
      schema: { type: "object", properties: { meta: { type: "object" } } },
      pointer: "#/properties/meta",
      mentions: "declare its properties",
    },
    {
      name: "remote $ref",
      schema: { type: "object", properties: { a: { $ref: "other.json#/x" } } },
      pointer: "#/properties/a",
      mentions: "#/$defs/Name",
    },
    {
      name: "$ref into properties",
      schema: { type: "object", properties: { a: { type: "string" }, b: { $ref: "#/properties/a" } } },
      pointer: "#/properties/b",
      mentions: "move the target into $defs",
    },
    {
      name: "unresolved $ref",
      schema: { type: "object", properties: { a: { $ref: "#/$defs/Missing" } } },
      pointer: "#/properties/a",
      mentions: 'define "Missing"',
    },
    {
      name: "$ref with siblings",
      schema: {
        type: "object",
        properties: { a: { $ref: "#/$defs/S", minLength: 2 } },
        $defs: { S: { type: "string" } },
      },
      pointer: "#/properties/a",
      mentions: "move those keywords",
    },
    {
      name: "nested $defs",
      schema: { type: "object", properties: { a: { type: "string", $defs: { X: { type: "string" } } } } },
      pointer: "#/properties/a",
      mentions: "move these definitions to the root",
    },
    {
      name: "untyped schema",
      schema: { type: "object", properties: { a: { description: "anything" } } },
      pointer: "#/properties/a",
      mentions: "add type",
    },
    {
      name: "empty schema",
      schema: { type: "object", properties: { a: {} } },
      pointer: "#/properties/a",
      mentions: "give it a type",
    },
    {
      name: "true schema",
      schema: { type: "object", properties: { a: true } },
      pointer: "#/properties/a",
      mentions: "give it a type",
    },
    {
      name: "tuple items",
      schema: { type: "object", properties: { t: { type: "array", items: [{ type: "string" }] } } },
      pointer: "#/properties/t",
      mentions: "no tuples",
    },
    {
      name: "prefixItems",
      schema: {
        type: "object",
        properties: { t: { type: "array", prefixItems: [{ type: "string" }], items: { type: "string" } } },
      },
      pointer: "#/properties/t",
      mentions: "no tuples",
    },
    {
      name: "array without items",
      schema: { type: "object", properties: { t: { type: "array" } } },
      pointer: "#/properties/t",
      mentions: "declare the element schema",
    },
    {
      name: "enum of objects",
      schema: { type: "object", properties: { e: { enum: [{ a: 1 }] } } },
      pointer: "#/properties/e",
      mentions: "strings, numbers, booleans or null",
    },
    {
      name: "required not declared",
      schema: { type: "object", properties: { a: { type: "string" } }, required: ["b"] },
      pointer: "#",
      mentions: "declare it",
    },
    {
      name: "OpenAPI nullable",
      schema: { type: "object", properties: { a: { type: "string", nullable: true } } },
      pointer: "#/properties/a",
      mentions: 'type: [T, "null"]',
    },
    {
      name: "$ref cycle",
      schema: {
        type: "object",
        properties: { a: { $ref: "#/$defs/A" } },
        $defs: { A: { $ref: "#/$defs/B" }, B: { anyOf: [{ $ref: "#/$defs/A" }, { type: "string" }] } },
      },
      pointer: "#/$defs/A",
      mentions: "never passes through",
    },
    {
      name: "array root",
      schema: { type: "array", items: { type: "string" } },
      pointer: "#",
      mentions: 'root must be type "object"',
    },
    {
      name: "string root",
      schema: { type: "string" },
      pointer: "#",
      mentions: "wrap the value in an object property",
    },
    {
      name: "nullable root",
      schema: { type: ["object", "null"], properties: { a: { type: "string" } } },
      pointer: "#",
      mentions: 'root must be type "object"',
    },
    {
      name: "anyOf root",
      schema: {
        anyOf: [
          { type: "object", properties: { a: { type: "string" } } },
          { type: "object", properties: { b: { type: "string" } } },
        ],
      },
      pointer: "#",
      mentions: "root cannot be anyOf",
    },
    {
      name: "root $ref to a non-object",
      schema: { $ref: "#/$defs/S", $defs: { S: { type: "string" } } },
      pointer: "#/$defs/S",
      mentions: 'root must be type "object"',
    },
  ];

  test.each(rejected)("rejects $name with its pointer and a fix", ({ schema, pointer, mentions }) => {
    const error = unsupported(schema);
    const issue = error.issues.find((candidate) => candidate.pointer === pointer);
    expect(issue, JSON.stringify(error.issues)).toBeDefined();
    expect(issue?.message).toContain(mentions);
  });

  test("reports every problem at once", () => {
    const error = unsupported({
      type: "object",
      properties: {
        a: { oneOf: [{ type: "string" }] },
        b: { type: "object" },
        c: { type: "array", items: { type: "object", properties: { d: { $ref: "elsewhere.json" } } } },
      },
    });
    expect(error.issues.map((issue) => issue.pointer)).toEqual(
      expect.arrayContaining(["#/properties/a", "#/properties/b", "#/properties/c/items/properties/d"]),
    );
    expect(error.message).toMatch(
      /^Output schema cannot be used in strict structured-output mode: at #\/properties\/a:/,
    );
  });

  test("pointer tokens are escaped", () => {
    const error = unsupported({ type: "object", properties: { "a/b~c": { oneOf: [] } } });
    expect(error.issues[0]?.pointer).toBe("#/properties/a~1b~0c");
  });
});

// ---------------------------------------------------------------------------------------------------------
// Generated cases: random caller schemas and values, seeded so failures reproduce.

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface GenContext {
  random: () => number;
  defs: Record<string, JsonSchemaObject>;
  /** Definitions still being generated: never referenced from inside themselves except through `next`. */
  building: Set<string>;
}

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] as T;
}

const SCALAR_KINDS = [
  "string",
  "integer",
  "number",
  "boolean",
  "enum",
  "typedEnum",
  "const",
  "nullableType",
  "nullableAnyOf",
  "scalarAnyOf",
] as const;
const NESTED_KINDS = ["object", "arrayOfObjects", "arrayOfScalars", "ref", "anyOfObjects"] as const;

function genSchema(ctx: GenContext, depth: number): JsonSchemaObject {
  const kind = pick(
    ctx.random,
    depth >= 3 ? SCALAR_KINDS : [...SCALAR_KINDS, ...NESTED_KINDS, ...NESTED_KINDS],
  );
  switch (kind) {
    case "string":
      return { type: "string", description: "some text" };
    case "integer":
      return { type: "integer", minimum: 0 };
    case "number":
      return { type: "number" };
    case "boolean":
      return { type: "boolean" };
    case "enum":
      return { enum: ["red", "green", "blue"] };
    case "typedEnum":
      return { type: "string", enum: ["x", "y"] };
    case "const":
      return { const: 7 };
    case "nullableType":
      return { type: ["string", "null"] };
    case "nullableAnyOf":
      return { anyOf: [{ type: "integer" }, { type: "null" }] };
    case "scalarAnyOf":
      return { anyOf: [{ type: "integer" }, { type: "string" }] };
    case "object":
      return genObject(ctx, depth + 1);
    case "arrayOfObjects":
      return { type: "array", items: genObject(ctx, depth + 1) };
    case "arrayOfScalars":
      return { type: "array", items: { type: "string" } };
    case "ref": {
      const names = Object.keys(ctx.defs);
      const done = names.filter((name) => !ctx.building.has(name));
      if (done.length > 0 && (names.length >= 2 || ctx.random() < 0.5))
        return { $ref: `#/$defs/${pick(ctx.random, done)}` };
      if (names.length >= 2) return { type: "string" };
      const name = `Def${names.length}`;
      ctx.building.add(name);
      ctx.defs[name] = { type: "object", properties: {} };
      const def = genObject(ctx, depth + 1);
      ctx.building.delete(name);
      // Optional self-reference: recursion the values can always end.
      if (ctx.random() < 0.6) (def.properties as Record<string, unknown>).next = { $ref: `#/$defs/${name}` };
      ctx.defs[name] = def;
      return { $ref: `#/$defs/${name}` };
    }
    case "anyOfObjects":
      return { anyOf: [genObject(ctx, depth + 1, "a"), genObject(ctx, depth + 1, "b")] };
  }
}

function genObject(
  ctx: GenContext,
  depth: number,
  discriminator?: string,
): JsonSchemaObject & { properties: Record<string, JsonSchemaObject> } {
  const properties: Record<string, JsonSchemaObject> = {};
  const required: string[] = [];
  if (discriminator !== undefined) {
    properties.kind = { const: discriminator };
    required.push("kind");
  }
  const count = 1 + Math.floor(ctx.random() * 4);
  for (let index = 0; index < count; index += 1) {
    const name = `p${index}`;
    properties[name] = genSchema(ctx, depth);
    if (ctx.random() < 0.4) required.push(name);
  }
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}) };
}

function resolve(root: JsonSchemaObject, schema: JsonSchemaObject): JsonSchemaObject {
  if (typeof schema.$ref !== "string") return schema;
  const name = schema.$ref.replace("#/$defs/", "");
  return (root.$defs as Record<string, JsonSchemaObject>)[name] as JsonSchemaObject;
}

function genValue(
  random: () => number,
  root: JsonSchemaObject,
  input: JsonSchemaObject,
  depth: number,
): unknown {
  const schema = resolve(root, input);
  if (Array.isArray(schema.anyOf))
    return genValue(random, root, pick(random, schema.anyOf as JsonSchemaObject[]), depth);
  if (Object.hasOwn(schema, "const")) return schema.const;
  if (Array.isArray(schema.enum)) return pick(random, schema.enum);
  const type = Array.isArray(schema.type) ? pick(random, schema.type as string[]) : schema.type;
  switch (type) {
    case "null":
      return null;
    case "string":
      return pick(random, ["", "alpha", 'with "quotes"', "ünïcødé"]);
    case "integer":
      return Math.floor(random() * 100);
    case "number":
      return Math.round(random() * 1000) / 8;
    case "boolean":
      return random() < 0.5;
    case "array": {
      const length = depth > 5 ? 0 : Math.floor(random() * 3);
      return Array.from({ length }, () =>
        genValue(random, root, schema.items as JsonSchemaObject, depth + 1),
      );
    }
    case "object": {
      const out: Record<string, unknown> = {};
      const required = new Set((schema.required as string[] | undefined) ?? []);
      for (const [name, child] of Object.entries(schema.properties as Record<string, JsonSchemaObject>)) {
        if (required.has(name) || (depth < 5 && random() < 0.5))
          out[name] = genValue(random, root, child, depth + 1);
      }
      return out;
    }
    default:
      throw new Error(`generator: unexpected schema ${JSON.stringify(schema)}`);
  }
}

function acceptsNull(root: JsonSchemaObject, input: JsonSchemaObject): boolean {
  const schema = resolve(root, input);
  if (schema.type === "null") return true;
  if (Array.isArray(schema.type)) return schema.type.includes("null");
  if (Array.isArray(schema.anyOf))
    return (schema.anyOf as JsonSchemaObject[]).some((branch) => acceptsNull(root, branch));
  return false;
}

/**
 * What a model answering under the strict schema returns for `value` (every omitted property present as null),
 * and what the map back must give: the value itself, except omitted optional properties whose schema accepts
 * null come back as null (the documented choice: such nulls are kept).
 */
function simulateModel(
  root: JsonSchemaObject,
  input: JsonSchemaObject,
  value: unknown,
): { answer: unknown; expected: unknown } {
  const schema = resolve(root, input);
  if (Array.isArray(schema.anyOf)) {
    const branch = (schema.anyOf as JsonSchemaObject[]).find(
      (candidate) =>
        isObject(value) &&
        (candidate.properties as Record<string, JsonSchemaObject> | undefined)?.kind?.const === value.kind,
    );
    return branch === undefined ? { answer: value, expected: value } : simulateModel(root, branch, value);
  }
  if (Array.isArray(value)) {
    const mapped = value.map((item) => simulateModel(root, schema.items as JsonSchemaObject, item));
    return { answer: mapped.map((entry) => entry.answer), expected: mapped.map((entry) => entry.expected) };
  }
  if (isObject(value) && isObject(schema.properties)) {
    const answer: Record<string, unknown> = {};
    const expected: Record<string, unknown> = {};
    for (const [name, child] of Object.entries(schema.properties as Record<string, JsonSchemaObject>)) {
      if (Object.hasOwn(value, name)) {
        const inner = simulateModel(root, child, value[name]);
        answer[name] = inner.answer;
        expected[name] = inner.expected;
      } else {
        answer[name] = null;
        if (acceptsNull(root, child)) expected[name] = null;
      }
    }
    return { answer, expected };
  }
  return { answer: value, expected: value };
}

describe("generated schemas and values (seeded)", () => {
  const SEEDS = Array.from({ length: 80 }, (_, index) => 1000 + index);
  const seen = { refs: 0, recursive: 0, anyOfObjects: 0, arrays: 0, droppedNulls: 0, keptNulls: 0 };

  test.each(SEEDS)(
    "seed %i: strict invariants hold and answers map back to valid original values",
    (seed) => {
      const random = mulberry32(seed);
      const ctx: GenContext = { random, defs: {}, building: new Set() };
      const root = genObject(ctx, 0) as Record<string, unknown>;
      if (Object.keys(ctx.defs).length > 0) root.$defs = ctx.defs;
      if (random() < 0.5) root.$schema = "https://json-schema.org/draft/2020-12/schema";
      const original = root as JsonSchemaObject;

      // To inspect a failing case: DUMP_SEED=<seed> npx vitest run test/codex/strict-schema.test.ts -t "seed <seed>"
      if (seed === Number(process.env.DUMP_SEED)) console.log(JSON.stringify(original));
      const originalValidator = compileSchemaValidator(original);
      const { schema: strict, plan } = normalize(original);
      const strictValidator = new Ajv({ strict: false, allErrors: true }).compile(strict);
      const text = JSON.stringify(strict);
      if (text.includes('"$ref"')) seen.refs += 1;
      if (/"next"/.test(text)) seen.recursive += 1;
      if (text.includes('"kind"')) seen.anyOfObjects += 1;
      if (text.includes('"array"')) seen.arrays += 1;

      for (let sample = 0; sample < 5; sample += 1) {
        const value = genValue(random, original, original, 0);
        expect(originalValidator(value), JSON.stringify(originalValidator.errors)).toBe(true);
        const { answer, expected } = simulateModel(original, original, value);
        expect(
          strictValidator(answer),
          `strict schema rejects the answer: ${JSON.stringify(strictValidator.errors)}`,
        ).toBe(true);

        const before = structuredClone(answer);
        const mapped = denormalizeValue(answer, plan);
        expect(answer).toEqual(before);
        expect(mapped).toEqual(expected);
        expect(originalValidator(mapped), JSON.stringify(originalValidator.errors)).toBe(true);
        const answerText = JSON.stringify(answer);
        const droppedCount =
          (answerText.match(/null/g) ?? []).length - (JSON.stringify(expected).match(/null/g) ?? []).length;
        seen.droppedNulls += droppedCount;
        if (JSON.stringify(expected).includes("null")) seen.keptNulls += 1;

        expect(parseStructuredOutput(answerText, original, plan)).toEqual({ ok: true, value: expected });
      }
    },
  );

  test("the generator exercised every feature", () => {
    expect(seen.refs).toBeGreaterThan(10);
    expect(seen.recursive).toBeGreaterThan(5);
    expect(seen.anyOfObjects).toBeGreaterThan(10);
    expect(seen.arrays).toBeGreaterThan(10);
    expect(seen.droppedNulls).toBeGreaterThan(50);
    expect(seen.keptNulls).toBeGreaterThan(10);
  });
});
