import { getEventListeners } from "node:events";
import { describe, expect, it } from "vitest";
import { onAbort } from "../../src/harness/on-abort.js";

const listeners = (signal: AbortSignal): number => getEventListeners(signal, "abort").length;

describe("onAbort", () => {
  it("puts one listener on a signal however many subscribe, and runs them all in order on abort", () => {
    const controller = new AbortController();
    const ran: number[] = [];
    for (let i = 0; i < 50; i++) onAbort(controller.signal, () => ran.push(i));
    expect(listeners(controller.signal)).toBe(1);
    controller.abort();
    expect(ran).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(listeners(controller.signal)).toBe(0);
  });

  it("removes the listener when the last subscriber leaves, and subscribes afresh after that", () => {
    const controller = new AbortController();
    const ran: string[] = [];
    const a = onAbort(controller.signal, () => ran.push("a"));
    const b = onAbort(controller.signal, () => ran.push("b"));
    a();
    expect(listeners(controller.signal)).toBe(1);
    b();
    b(); // idempotent
    expect(listeners(controller.signal)).toBe(0);
    onAbort(controller.signal, () => ran.push("c"));
    expect(listeners(controller.signal)).toBe(1);
    controller.abort();
    expect(ran).toEqual(["c"]);
  });

  it("runs the other subscribers when one throws, and reports the error afterwards", async () => {
    const controller = new AbortController();
    const ran: string[] = [];
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown): void => {
      uncaught.push(error);
    };
    process.prependListener("uncaughtException", onUncaught);
    try {
      const boom = new Error("boom");
      onAbort(controller.signal, () => {
        throw boom;
      });
      onAbort(controller.signal, () => ran.push("after"));
      controller.abort();
      expect(ran).toEqual(["after"]);
      await new Promise((resolve) => setImmediate(resolve));
      expect(uncaught).toEqual([boom]);
    } finally {
      process.off("uncaughtException", onUncaught);
    }
  });

  it("lets a subscriber unsubscribe a later one during the abort (it does not run) without skipping the rest", () => {
    const controller = new AbortController();
    const ran: string[] = [];
    let unsubscribeB = (): void => {};
    onAbort(controller.signal, () => {
      ran.push("a");
      unsubscribeB();
    });
    unsubscribeB = onAbort(controller.signal, () => ran.push("b"));
    onAbort(controller.signal, () => ran.push("c"));
    controller.abort();
    expect(ran).toEqual(["a", "c"]);
  });
});
