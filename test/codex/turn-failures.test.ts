import { describe, expect, it } from "vitest";
import { refusedFailure } from "../../src/codex/turn/turn-failures.js";
import { JsonRpcResponseError } from "../../src/jsonl/errors.js";

describe("refusedFailure", () => {
  it("marks a thread/resume of a thread codex has no history of as thread-not-found, and says what to do", () => {
    const failure = refusedFailure(
      new JsonRpcResponseError("thread/resume", -32600, "no rollout found for thread id 0199f0fa", null),
    );
    expect(failure).toMatchObject({ source: "jsonrpc", method: "thread/resume", code: -32600 });
    expect(failure.refusal).toBe("thread-not-found");
    expect(failure.message).toContain("no rollout found for thread id 0199f0fa");
    expect(failure.message).toContain("ephemeral: false / --keep-thread");
  });

  it("marks a thread/resume of a thread another codex is writing as thread-busy, and says what to do", () => {
    const failure = refusedFailure(
      new JsonRpcResponseError("thread/resume", -32600, "thread 0199f0fa already has an active writer", null),
    );
    expect(failure).toMatchObject({ source: "jsonrpc", method: "thread/resume", code: -32600 });
    expect(failure.refusal).toBe("thread-busy");
    expect(failure.message).toContain("thread 0199f0fa already has an active writer");
    expect(failure.message).toContain("another turn of this thread is running");
  });

  it("leaves every other refusal as codex said it", () => {
    for (const [method, message] of [
      ["thread/resume", "invalid session id"],
      ["thread/start", "no rollout found"],
    ] as const) {
      const failure = refusedFailure(new JsonRpcResponseError(method, -32600, message, null));
      expect(failure.refusal).toBeUndefined();
      expect(failure.message).toBe(`${method} was refused by codex: ${message}`);
    }
  });
});
