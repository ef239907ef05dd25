import { closeSync, openSync, readSync } from "node:fs";
import { requirePackage } from "./load-module.js";
import type * as Crypto from "node:crypto";

/** The kernel's random device on POSIX systems: the same source node's own crypto is seeded from. */
const DEVICE = "/dev/urandom";
/** Bytes read from the device at a time: a session draws about 40, so one read serves several sessions. */
const POOL_BYTES = 512;

/** Fills a buffer with cryptographically strong random bytes. */
export type RandomFill = (target: Uint8Array) => void;

/**
 * A source of random bytes that reads {@link DEVICE} (`device`) in blocks and falls back to `node:crypto`
 * when the device cannot be read (Windows, a sandbox without `/dev`). Ids are drawn before every spawn, and
 * loading node's crypto (module or `crypto` global) costs a fresh process about 5 ms, so where the device is
 * there it is never loaded.
 */
export function randomSource(device: string = DEVICE): RandomFill {
  const pool = new Uint8Array(POOL_BYTES);
  let used = POOL_BYTES;
  let fallback: RandomFill | null = process.platform === "win32" ? cryptoFill() : null;
  const refill = (): boolean => {
    let fd: number;
    try {
      fd = openSync(device, "r");
    } catch {
      return false;
    }
    try {
      let filled = 0;
      while (filled < POOL_BYTES) {
        const read = readSync(fd, pool, filled, POOL_BYTES - filled, null);
        if (read <= 0) return false;
        filled += read;
      }
      used = 0;
      return true;
    } catch {
      return false;
    } finally {
      closeSync(fd);
    }
  };
  return (target) => {
    for (let offset = 0; offset < target.length;) {
      if (fallback !== null) {
        fallback(target.subarray(offset));
        return;
      }
      if (used === POOL_BYTES && !refill()) {
        fallback = cryptoFill();
        continue;
      }
      const take = Math.min(POOL_BYTES - used, target.length - offset);
      target.set(pool.subarray(used, used + take), offset);
      // drawn bytes are cleared so that no later caller can be handed them again
      pool.fill(0, used, used + take);
      used += take;
      offset += take;
    }
  };
}

function cryptoFill(): RandomFill {
  const { randomFillSync } = requirePackage<typeof Crypto>("node:crypto");
  return (target) => {
    randomFillSync(target);
  };
}

const processSource = randomSource();

/** `bytes` random bytes as lowercase hex (twice as many characters). */
export function randomHex(bytes: number, fill: RandomFill = processSource): string {
  const buffer = new Uint8Array(bytes);
  fill(buffer);
  return Buffer.from(buffer.buffer, buffer.byteOffset, buffer.byteLength).toString("hex");
}

/** A random (version 4) UUID, formatted like `crypto.randomUUID()`. */
export function randomUuid(fill: RandomFill = processSource): string {
  const bytes = new Uint8Array(16);
  fill(bytes);
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
  const hex = Buffer.from(bytes.buffer).toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
