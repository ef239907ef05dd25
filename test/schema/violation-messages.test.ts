import { describe, expect, test } from "vitest";
import { SchemaLocations, instanceKeys } from "../../src/schema/schema-locations.js";
import { violationOf } from "../../src/schema/violation-messages.js";

const schema = {
  $id: "https://example.test/s.json",
  type: "object",
  $defs: { short: { type: "string", maxLength: 3 } },
  properties: {
    a: { $ref: "#/$defs/short" },
    "x/y": { enum: ["p", "q"] },
    list: { type: "array", uniqueItems: true, prefixItems: [{}], items: false },
    c: { const: { k: 1 } },
    n: { type: "integer", minimum: 2, exclusiveMaximum: 9, multipleOf: 3 },
    off: false,
  },
  required: ["a"],
  additionalProperties: false,
  dependentRequired: { a: ["b", "c"] },
};
const locations = new SchemaLocations(schema);

function message(keywordLocation: string, instanceLocation: string, data: unknown): [string, string] {
  const violation = violationOf({ keywordLocation, instanceLocation }, locations, data);
  return [violation.instancePath, violation.message];
}

describe("violationOf: messages in the words callers see", () => {
  test.each([
    ["#/required", "#/a", {}, ["", "must have required property 'a'"]],
    ["#/additionalProperties", "#/zz", { zz: 1 }, ["", "must NOT have additional properties"]],
    ["#/properties/a/$ref/maxLength", "#/a", { a: "long" }, ["/a", "must NOT have more than 3 characters"]],
    [
      "#/properties/x/y/enum",
      "#/x/y",
      { "x/y": "r" },
      ["/x~1y", "must be equal to one of the allowed values"],
    ],
    ["#/properties/list/items", "#/list", { list: [1, 2] }, ["/list", "must NOT have more than 1 items"]],
    [
      "#/properties/list/uniqueItems",
      "#/list",
      { list: [1, 2, 1] },
      ["/list", "must NOT have duplicate items (items ## 2 and 0 are identical)"],
    ],
    ["#/properties/c/const", "#/c", { c: 2 }, ["/c", "must be equal to constant"]],
    ["#/properties/n/minimum", "#/n", { n: 1 }, ["/n", "must be >= 2"]],
    ["#/properties/n/exclusiveMaximum", "#/n", { n: 9 }, ["/n", "must be < 9"]],
    ["#/properties/n/multipleOf", "#/n", { n: 4 }, ["/n", "must be multiple of 3"]],
    ["#/properties/off", "#/off", { off: 1 }, ["/off", "boolean schema is false"]],
    ["#/dependentRequired/a", "#", { a: 1 }, ["", "must have properties b, c when property a is present"]],
    ["#/type", "#", 5, ["", "must be object"]],
  ])("%s at %s", (keywordLocation, instanceLocation, data, expected) => {
    expect(message(keywordLocation, instanceLocation, data)).toEqual(expected);
  });

  test("params name the offending property and the allowed values", () => {
    const extra = violationOf(
      { keywordLocation: "#/additionalProperties", instanceLocation: "#/a/b" },
      locations,
      {
        "a/b": 1,
      },
    );
    expect(extra).toMatchObject({
      instancePath: "",
      keyword: "additionalProperties",
      params: { additionalProperty: "a/b" },
    });
    const allowed = violationOf(
      { keywordLocation: "#/properties/x/y/enum", instanceLocation: "#/x/y" },
      locations,
      {},
    );
    expect(allowed.params).toEqual({ allowedValues: ["p", "q"] });
  });

  test("a keyword without its own words names the keyword", () => {
    const odd = new SchemaLocations({ "x-check": 1 });
    expect(violationOf({ keywordLocation: "#/x-check", instanceLocation: "#" }, odd, 1).message).toBe(
      'must pass "x-check" keyword validation',
    );
  });
});

describe("instanceKeys", () => {
  test("keys with a slash are found in the value whether the location escapes them or not", () => {
    expect(instanceKeys({ "a/b": { c: 1 } }, "#/a/b/c")).toEqual(["a/b", "c"]);
    expect(instanceKeys({ "a/b": { c: 1 } }, "#/a~1b/c")).toEqual(["a/b", "c"]);
    expect(instanceKeys({}, "#/missing")).toEqual(["missing"]);
    expect(instanceKeys([0, [1]], "#/1/0")).toEqual(["1", "0"]);
  });
});
