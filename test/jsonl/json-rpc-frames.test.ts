import { describe, expect, it } from "vitest";
import { classifyFrame } from "../../src/jsonl/json-rpc-frames.js";

describe("classifyFrame", () => {
  it("classifies a notification (method, no id)", () => {
    const frame = { method: "turn/started", params: { a: 1 } };
    expect(classifyFrame(frame)).toEqual({
      kind: "notification",
      method: "turn/started",
      params: { a: 1 },
      frame,
    });
  });

  it("classifies a server request with a numeric id, including 0", () => {
    const frame = { id: 0, method: "item/commandExecution/requestApproval", params: {} };
    expect(classifyFrame(frame)).toMatchObject({ kind: "request", id: 0, method: frame.method });
  });

  it("classifies a server request with a string id", () => {
    expect(classifyFrame({ id: "r1", method: "x" })).toMatchObject({ kind: "request", id: "r1" });
  });

  it("classifies a response, including a null result", () => {
    expect(classifyFrame({ id: 3, result: { ok: 1 } })).toMatchObject({
      kind: "response",
      id: 3,
      result: { ok: 1 },
    });
    expect(classifyFrame({ id: 4, result: null })).toMatchObject({ kind: "response", id: 4, result: null });
  });

  it("classifies an error response and keeps code, message and data", () => {
    expect(classifyFrame({ id: 2, error: { code: -32600, message: "bad", data: { x: 1 } } })).toMatchObject({
      kind: "error-response",
      id: 2,
      error: { code: -32600, message: "bad", data: { x: 1 } },
    });
  });

  it("classifies an error response with a null id", () => {
    expect(classifyFrame({ id: null, error: { code: -32700, message: "parse" } })).toMatchObject({
      kind: "error-response",
      id: null,
    });
  });

  it("tolerates an error without a numeric code or a string message", () => {
    const classified = classifyFrame({ id: 1, error: { detail: "odd" } });
    expect(classified).toMatchObject({
      kind: "error-response",
      error: { code: 0, message: '{"detail":"odd"}' },
    });
  });

  it.each([
    ["nothing recognisable", { hello: 1 }],
    ["a method with a null id", { id: null, method: "x" }],
    ["a method with an object id", { id: {}, method: "x" }],
    ["an id alone", { id: 1 }],
    ["a result without an id", { result: 1 }],
    ["a non-finite numeric id", { id: Number.NaN, result: 1 }],
  ])("classifies %s as unknown", (_label, frame) => {
    expect(classifyFrame(frame as Record<string, unknown>).kind).toBe("unknown");
  });
});
