import { describe, expect, it } from "vitest";
import { SharedLookups } from "../../../src/claude/client/shared-lookups.js";

function deferred<T>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe("SharedLookups waiting count", () => {
  it("counts a waiter that left by abort once, also after the answer settles", async () => {
    const lookups = new SharedLookups<string>();
    const answer = deferred<string>();
    const a = new AbortController();
    const b = new AbortController();
    const first = lookups.get("k", () => answer.promise, a.signal);
    const second = lookups.get("k", () => answer.promise, b.signal);
    expect(lookups.waitingFor("k")).toBe(2);
    a.abort(new Error("a left"));
    await expect(first).rejects.toThrow("a left");
    expect(lookups.waitingFor("k")).toBe(1);
    answer.resolve("ok");
    await expect(second).resolves.toBe("ok");
    expect(lookups.waitingFor("k")).toBe(0);
  });

  it("stops the lookup exactly when the last remaining waiter leaves", async () => {
    const lookups = new SharedLookups<string>();
    let stopped: AbortSignal | null = null;
    const start = (signal: AbortSignal): Promise<string> => {
      stopped = signal;
      return new Promise<string>(() => {});
    };
    const controllers = [new AbortController(), new AbortController(), new AbortController()];
    const waits = controllers.map((c) => lookups.get("k", start, c.signal).catch((e: unknown) => e));
    controllers[0]!.abort(new Error("first"));
    controllers[1]!.abort(new Error("second"));
    await Promise.resolve();
    expect(stopped!.aborted).toBe(false);
    expect(lookups.waitingFor("k")).toBe(1);
    controllers[2]!.abort(new Error("third"));
    expect(stopped!.aborted).toBe(true);
    expect(lookups.waitingFor("k")).toBe(0);
    await Promise.all(waits);
  });
});
