import { describe, expect, it } from "vitest";
import { bufferedReader, EventChannel } from "../../src/harness/event-channel.js";

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
    expect(() => channel[Symbol.asyncIterator]()).toThrow(
      expect.objectContaining({ name: "RennetError", code: "EVENTS_ITERATED_TWICE" }),
    );
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
    expect(channel.length).toBe(0); // the unread 2 is gone
    channel.push(3); // a push after the consumer stopped is dropped too
    expect(channel.length).toBe(0);
    expect(channel.readBuffered()).toEqual([]);
    expect(channel.peakLength).toBe(2);
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

describe("EventChannel flow", () => {
  function flowing(highWater = 4, lowWater = 1) {
    const signals: boolean[] = [];
    const onReturn: string[] = [];
    const channel = new EventChannel<number>(() => onReturn.push("return"), {
      highWater,
      lowWater,
      onFull: (full) => signals.push(full),
    });
    return { channel, signals, onReturn };
  }

  it("readBuffered takes what is queued in order, keeps order with iteration, and signals not full", async () => {
    const { channel, signals } = flowing();
    expect(channel.readBuffered()).toEqual([]);
    for (let i = 1; i <= 6; i++) channel.push(i);
    const it = channel[Symbol.asyncIterator]();
    expect((await it.next()).value).toBe(1);
    expect(signals).toEqual([true]);
    expect(channel.readBuffered()).toEqual([2, 3, 4, 5, 6]);
    expect(signals).toEqual([true, false]);
    expect(channel.length).toBe(0);
    const waiting = it.next();
    channel.push(7);
    channel.push(8);
    expect((await waiting).value).toBe(7);
    expect(channel.readBuffered()).toEqual([8]);
    channel.close();
    expect(await it.next()).toEqual({ value: undefined, done: true });
    expect(bufferedReader(channel)?.()).toEqual([]);
    expect(bufferedReader({ [Symbol.asyncIterator]: () => it })).toBeNull();
  });

  it("signals full once at the high-water mark and not full once read down to the low-water mark", async () => {
    const { channel, signals } = flowing();
    const it = channel[Symbol.asyncIterator]();
    for (let i = 1; i <= 6; i++) channel.push(i);
    expect(signals).toEqual([true]);
    expect(channel.length).toBe(6);
    const read: number[] = [];
    for (let i = 0; i < 4; i++) read.push((await it.next()).value as number);
    expect(signals).toEqual([true]);
    read.push((await it.next()).value as number);
    expect(signals).toEqual([true, false]);
    expect(channel.length).toBe(1);
    channel.push(7);
    channel.close();
    for (let r = await it.next(); !r.done; r = await it.next()) read.push(r.value);
    expect(read).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(channel.peakLength).toBe(6);
  });

  it("never signals while the consumer keeps up (items go straight to a waiting next())", async () => {
    const { channel, signals } = flowing(2, 0);
    const done = drain(channel);
    for (let i = 0; i < 100; i++) {
      await Promise.resolve();
      channel.push(i);
    }
    channel.close();
    expect(await done).toHaveLength(100);
    expect(signals).toEqual([]);
    expect(channel.peakLength).toBeLessThanOrEqual(1);
  });

  it("signals not full when the consumer stops early, after onReturn", async () => {
    const { channel, signals, onReturn } = flowing();
    const order: string[] = [];
    for (let i = 0; i < 5; i++) channel.push(i);
    for await (const item of channel) {
      expect(item).toBe(0);
      order.push(...onReturn, ...signals.map(String));
      break;
    }
    expect(order).toEqual(["true"]);
    expect(onReturn).toEqual(["return"]);
    expect(signals).toEqual([true, false]);
    expect(channel.length).toBe(0);
  });

  it("is never full while nobody reads it; full once a consumer begins (iterating or readBuffered) with the queue over the mark", () => {
    const unread = flowing();
    for (let i = 1; i <= 6; i++) unread.channel.push(i);
    expect(unread.signals).toEqual([]);
    unread.channel[Symbol.asyncIterator]();
    expect(unread.signals).toEqual([true]);
    const buffered = flowing();
    expect(buffered.channel.readBuffered()).toEqual([]);
    for (let i = 1; i <= 6; i++) buffered.channel.push(i);
    expect(buffered.signals).toEqual([true]);
  });

  it("keeps order across many reads with a moving head", async () => {
    const channel = new EventChannel<number>();
    for (let i = 0; i < 5000; i++) channel.push(i);
    const it = channel[Symbol.asyncIterator]();
    const seen: number[] = [];
    for (let i = 0; i < 3000; i++) seen.push((await it.next()).value as number);
    for (let i = 5000; i < 6000; i++) channel.push(i);
    channel.close();
    for (let r = await it.next(); !r.done; r = await it.next()) seen.push(r.value);
    expect(seen).toEqual(Array.from({ length: 6000 }, (_, i) => i));
    expect(channel.peakLength).toBe(5000);
  });
});
