import { describe, expect, it } from "vitest";
import { asRecord, isPlainRecord, isRecord } from "../src/json-record.js";

describe("json-record", () => {
  it("isRecord accepts objects only, not null or arrays", () => {
    expect(isRecord({ a: 1 })).toBe(true);
    expect(isRecord(new Date(0))).toBe(true);
    expect(isRecord(null)).toBe(false);
    expect(isRecord([1])).toBe(false);
    expect(isRecord("x")).toBe(false);
  });

  it("asRecord returns the object itself, or an empty one", () => {
    const value = { a: 1 };
    expect(asRecord(value)).toBe(value);
    expect(asRecord(null)).toEqual({});
    expect(asRecord([1, 2])).toEqual({});
  });

  it("isPlainRecord accepts object literals and null-prototype objects, not class instances", () => {
    expect(isPlainRecord({ a: 1 })).toBe(true);
    expect(isPlainRecord(Object.create(null))).toBe(true);
    expect(isPlainRecord(new Date(0))).toBe(false);
    expect(isPlainRecord(new Map())).toBe(false);
    expect(isPlainRecord([])).toBe(false);
    expect(isPlainRecord(null)).toBe(false);
  });
});
