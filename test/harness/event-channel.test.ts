import { describe, expect, it } from "vitest";
import { EventChannel } from "../../src/harness/event-channel.js";

async function drain<T>(channel: EventChannel<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of channel) out.push(item);
  return out;
}

describe("EventChannel", () => {
  it("yields items pushed before and during iteration, in order, then ends at close", async () => {
    const channel = new EventChannel<number>();
    channel.push(1);
    channel.push(2);
    const done = drain(channel);
    await Promise.resolve();
    channel.push(3);
    setTimeout(() => {
      channel.push(4);
      channel.close();
    }, 1);
    expect(await done).toEqual([1, 2, 3, 4]);
  });

  it("delivers everything buffered before close, and nothing pushed after it", async () => {
    const channel = new EventChannel<string>();
    channel.push("a");
    channel.push("b");
    channel.close();
    channel.push("late");
    expect(channel.closed).toBe(true);
    expect(await drain(channel)).toEqual(["a", "b"]);
  });

  it("ends a waiting consumer when closed", async () => {
    const channel = new EventChannel<number>();
    const done = drain(channel);
    await Promise.resolve();
    channel.close();
    expect(await done).toEqual([]);
  });

  it("can be iterated only once", () => {
    const channel = new EventChannel<number>();
    channel[Symbol.asyncIterator]();
    expect(() => channel[Symbol.asyncIterator]()).toThrow(/only once/);
  });

  it("calls onReturn once when the consumer stops early, and drops what was buffered", async () => {
    let returned = 0;
    const channel = new EventChannel<number>(() => returned++);
    channel.push(1);
    channel.push(2);
    for await (const item of channel) {
      expect(item).toBe(1);
      break;
    }
    expect(returned).toBe(1);
    expect(() => channel.push(3)).not.toThrow();
  });

  it("does not call onReturn when the consumer stops after close", async () => {
    let returned = 0;
    const channel = new EventChannel<number>(() => returned++);
    channel.push(1);
    channel.close();
    for await (const _item of channel) break;
    expect(returned).toBe(0);
  });

  it("answers next() with done after return()", async () => {
    const channel = new EventChannel<number>(() => {});
    const iterator = channel[Symbol.asyncIterator]();
    channel.push(1);
    await iterator.return?.();
    await expect(iterator.next()).resolves.toEqual({ value: undefined, done: true });
  });

  it("resolves concurrent next() calls in order instead of losing one", { timeout: 1000 }, async () => {
    const channel = new EventChannel<number>();
    const iterator = channel[Symbol.asyncIterator]();
    const first = iterator.next();
    const second = iterator.next();
    channel.push(1);
    channel.push(2);
    await expect(first).resolves.toEqual({ value: 1, done: false });
    await expect(second).resolves.toEqual({ value: 2, done: false });
  });

  it("ends every pending next() at close", { timeout: 1000 }, async () => {
    const channel = new EventChannel<number>();
    const iterator = channel[Symbol.asyncIterator]();
    const first = iterator.next();
    const second = iterator.next();
    channel.close();
    await expect(first).resolves.toEqual({ value: undefined, done: true });
    await expect(second).resolves.toEqual({ value: undefined, done: true });
  });

  it("ends a pending next() at return()", { timeout: 1000 }, async () => {
    const channel = new EventChannel<number>(() => {});
    const iterator = channel[Symbol.asyncIterator]();
    const pending = iterator.next();
    await iterator.return?.();
    await expect(pending).resolves.toEqual({ value: undefined, done: true });
  });

  it(
    "carries undefined items like any other (it does not mistake them for an empty buffer)",
    { timeout: 1000 },
    async () => {
      const channel = new EventChannel<number | undefined>();
      channel.push(undefined);
      channel.push(2);
      channel.close();
      expect(await drain(channel)).toEqual([undefined, 2]);
    },
  );
});
