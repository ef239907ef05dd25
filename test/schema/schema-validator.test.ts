import { describe, expect, test } from "vitest";
import type { JsonSchemaObject } from "../../src/schema/json-schema.js";
import { describeViolation } from "../../src/schema/schema-errors.js";
import { compileSchemaValidator, InvalidSchemaError } from "../../src/schema/schema-validator.js";
import { thrownBy } from "../helpers/thrown.js";

const D2020 = "https://json-schema.org/draft/2020-12/schema";
const D2019 = "https://json-schema.org/draft/2019-09/schema";

/** The violations of `value` as the callers show them, or `valid`. */
function check(schema: JsonSchemaObject, value: unknown): string[] | "valid" {
  const validate = compileSchemaValidator(schema);
  return validate(value) ? "valid" : (validate.errors ?? []).map(describeViolation);
}

function invalid(schema: JsonSchemaObject): InvalidSchemaError {
  const error = thrownBy(() => compileSchemaValidator(schema));
  expect(error).toBeInstanceOf(InvalidSchemaError);
  expect((error as InvalidSchemaError).code).toBe("SCHEMA_INVALID");
  return error as InvalidSchemaError;
}

describe("compileSchemaValidator: dialects", () => {
  test("2020-12: $dynamicRef through $defs reaches nested values", () => {
    const tree: JsonSchemaObject = {
      $schema: D2020,
      $ref: "#/$defs/node",
      $defs: {
        node: {
          $dynamicAnchor: "node",
          type: "object",
          properties: { name: { type: "string" }, kids: { type: "array", items: { $dynamicRef: "#node" } } },
          required: ["name"],
        },
      },
    };
    expect(check(tree, { name: "a", kids: [{ name: "b", kids: [] }] })).toBe("valid");
    expect(check(tree, { name: "a", kids: [{ name: 1 }] })).toEqual(["/kids/0/name must be string"]);
  });

  test("2019-09: $recursiveRef and dependentRequired apply", () => {
    const schema: JsonSchemaObject = {
      $schema: D2019,
      $recursiveAnchor: true,
      type: "object",
      properties: { next: { $recursiveRef: "#" }, a: {}, b: {} },
      dependentRequired: { a: ["b"] },
    };
    expect(check(schema, { next: { next: {} } })).toBe("valid");
    expect(check(schema, { next: { a: 1 } })).toEqual([
      "/next must have property b when property a is present",
    ]);
  });

  test("a 2020-12 meta-schema violation inside $defs names its path", () => {
    const error = invalid({ $schema: D2020, $defs: { a: { type: "strnig" } } });
    expect(error.issues).toEqual([
      { path: "/$defs/a/type", value: "strnig", message: expect.stringContaining('did you mean "string"?') },
    ]);
  });
});

describe("compileSchemaValidator: lenient like a non-strict validator", () => {
  test("extension keywords are accepted and ignored", () => {
    const schema: JsonSchemaObject = {
      type: "object",
      "x-owner": { team: "a" },
      properties: { ms: { type: "integer", "x-unit": "ms" } },
    };
    expect(check(schema, { ms: 5 })).toBe("valid");
    expect(check(schema, { ms: 1.5 })).toEqual(["/ms must be integer"]);
  });

  test("format is an annotation: not asserted, and an unknown format is no error", () => {
    expect(check({ type: "string", format: "email" }, "not an email")).toBe("valid");
    expect(check({ type: "string", format: "my-own-format" }, "x")).toBe("valid");
    expect(check({ $schema: D2020, type: "string", format: "date-time" }, "yesterday")).toBe("valid");
    // a property named `format` is a property, not the keyword
    expect(check({ type: "object", properties: { format: { type: "string" } } }, { format: 1 })).toEqual([
      "/format must be string",
    ]);
  });

  test("a keyword for a type the schema excludes is accepted (it can never fail)", () => {
    expect(check({ type: "string", minimum: 1 }, "x")).toBe("valid");
    expect(check({ type: "object", allOf: [{ minLength: 2 }] }, {})).toBe("valid");
  });

  test("draft-07: the siblings of a $ref apply too", () => {
    const schema: JsonSchemaObject = {
      definitions: { s: { type: "string" } },
      $ref: "#/definitions/s",
      minLength: 2,
    };
    expect(check(schema, "x")).toEqual(["(root) must NOT have fewer than 2 characters"]);
    expect(check(schema, 1)).toEqual(["(root) must be string"]);
  });

  test("keywords of no supported dialect are ignored: discriminator, propertyDependencies, id, content*", () => {
    const schema: JsonSchemaObject = {
      type: "object",
      discriminator: { propertyName: "kind" },
      oneOf: [
        { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
        { type: "object", properties: { b: { type: "string" } }, required: ["b"] },
      ],
      propertyDependencies: { a: { x: { required: ["c"] } } },
      id: 5,
    };
    expect(check(schema, { a: "x" })).toBe("valid");
    expect(check({ type: "number", divisibleBy: 2 }, 3)).toBe("valid");
    expect(check({ type: "string", contentMediaType: "application/json", contentSchema: false }, "{")).toBe(
      "valid",
    );
  });

  test("OpenAPI nullable: true beside type admits null", () => {
    expect(check({ type: "string", nullable: true }, null)).toBe("valid");
  });

  test("a required property that additionalProperties: false forbids compiles; objects then fail", () => {
    const schema: JsonSchemaObject = {
      type: "object",
      properties: {},
      additionalProperties: false,
      required: ["a"],
    };
    expect(check(schema, {})).toEqual(["(root) must have required property 'a'"]);
  });
});

/** `levels` objects inside each other, each the only property of the one around it. */
function nestedSchema(levels: number): JsonSchemaObject {
  let schema: JsonSchemaObject = { type: "string" };
  for (let i = 0; i < levels; i++) schema = { type: "object", properties: { a: schema }, required: ["a"] };
  return schema;
}

/** A schema object that is its own property's schema (a JS cycle, which no JSON text can express). */
function selfContainingSchema(): JsonSchemaObject {
  const properties: Record<string, JsonSchemaObject> = {};
  const schema: JsonSchemaObject = { type: "object", properties };
  properties.a = schema;
  return schema;
}

describe("compileSchemaValidator: schemas that cannot be compiled", () => {
  test.each([
    ["a local $ref", { type: "object", properties: { a: { $ref: "#/definitions/missing" } } }],
    ["a remote $ref", { $ref: "https://example.test/other.json" }],
  ])("%s that cannot be resolved is SCHEMA_INVALID", (_, schema) => {
    const error = invalid(schema as JsonSchemaObject);
    expect(error.message).toMatch(/^Output schema is not a valid JSON Schema: .*\$ref.*; fix the schema$/);
  });

  test.each([
    [undefined, "undefined"],
    [null, "null"],
    [true, "boolean"],
    [[], "an array"],
  ])("%j, from a caller without types, is SCHEMA_INVALID naming what it got", (schema, got) => {
    expect(invalid(schema as unknown as JsonSchemaObject).message).toBe(
      `Output schema is not a valid JSON Schema: got ${got}; give a JSON Schema object such as {"type":"object","properties":{…}}`,
    );
  });

  test.each([
    ["nested thousands of levels deep", nestedSchema(3000)],
    ["that contains itself", selfContainingSchema()],
  ])("a schema %s is SCHEMA_INVALID naming the depth, not a RangeError", (_, schema) => {
    expect(invalid(schema).message).toBe(
      "Output schema is not a valid JSON Schema: it nests deeper than 512 levels of objects and arrays (or contains itself); fix the schema",
    );
  });

  test("an unsupported $schema is SCHEMA_INVALID naming the dialects", () => {
    expect(invalid({ $schema: "http://json-schema.org/draft-04/schema#" }).message).toContain(
      "is not supported",
    );
  });
});

describe("compileSchemaValidator: ids", () => {
  test("a $ref to an embedded resource's $id and to a draft-07 anchor", () => {
    const schema: JsonSchemaObject = {
      $id: "https://example.test/root.json",
      definitions: { s: { $id: "s.json", type: "string" }, n: { $id: "#num", type: "number" } },
      properties: { a: { $ref: "s.json" }, b: { $ref: "#num" } },
    };
    expect(check(schema, { a: 1, b: "x" })).toEqual(["/a must be string", "/b must be number"]);
  });

  test("a caller's $id equal to a meta-schema's does not replace the meta-schema", () => {
    const schema: JsonSchemaObject = { $id: "http://json-schema.org/draft-07/schema#", type: "string" };
    expect(check(schema, "x")).toBe("valid");
    expect(invalid({ type: "strnig" }).issues[0]?.path).toBe("/type");
  });
});
