import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { randomHex, randomUuid, type RandomFill } from "../src/random-id.js";
import { randomSource } from "../src/internal/test-hooks.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "rennet-random-id-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("random ids", () => {
  it("formats version 4 UUIDs like crypto.randomUUID and never repeats one", () => {
    const seen = new Set<string>();
    for (let index = 0; index < 2000; index++) {
      const id = randomUuid();
      expect(id).toMatch(UUID_V4);
      seen.add(id);
    }
    expect(seen.size).toBe(2000);
  });

  it("sets the version and variant bits whatever the source gives", () => {
    const ones: RandomFill = (target) => target.fill(0xff);
    const zeros: RandomFill = (target) => target.fill(0);
    expect(randomUuid(ones)).toBe("ffffffff-ffff-4fff-bfff-ffffffffffff");
    expect(randomUuid(zeros)).toBe("00000000-0000-4000-8000-000000000000");
  });

  it("gives hex of twice the byte count", () => {
    expect(randomHex(12)).toMatch(/^[0-9a-f]{24}$/);
    expect(randomHex(0)).toBe("");
    expect(randomHex(4)).not.toBe(randomHex(4));
  });

  it.skipIf(process.platform === "win32")("reads the device in blocks and hands each byte out once", () => {
    const device = path.join(dir, "device");
    const bytes = Buffer.alloc(1024);
    for (let index = 0; index < bytes.length; index++) bytes[index] = index % 251;
    writeFileSync(device, bytes);
    const fill = randomSource(device);
    const first = new Uint8Array(300);
    const second = new Uint8Array(300);
    fill(first);
    fill(second);
    // the second draw continues the first block, then reads the device again from its start
    expect([...first]).toEqual([...bytes.subarray(0, 300)]);
    expect([...second.subarray(0, 212)]).toEqual([...bytes.subarray(300, 512)]);
    expect([...second.subarray(212)]).toEqual([...bytes.subarray(0, 88)]);
  });

  it("falls back to node:crypto when the device is missing or too short", () => {
    for (const device of [path.join(dir, "missing"), path.join(dir, "short")]) {
      if (device.endsWith("short")) writeFileSync(device, Buffer.alloc(10, 7));
      const fill = randomSource(device);
      const target = new Uint8Array(64);
      fill(target);
      expect(target.some((byte) => byte !== 0 && byte !== 7)).toBe(true);
      expect(randomUuid(fill)).toMatch(UUID_V4);
    }
  });
});
