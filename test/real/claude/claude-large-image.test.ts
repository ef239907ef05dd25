/**
 * The real claude with an image near the largest Rennet accepts, offline: the turn completes whether or not the
 * release echoes the user message (with the image's base64) back on stdout as one line.
 */
import { randomBytes } from "node:crypto";
import { deflateSync } from "node:zlib";
import { afterEach, describe, expect, it } from "vitest";
import * as scenarios from "../../../src/testkit/messages-scenarios.js";
import { ClaudeSetups, claudeUnderTest, imageTurn } from "./claude-helpers.js";

const setups = new ClaudeSetups();
claudeUnderTest();
afterEach(() => setups.dispose());

function crc32(bytes: Buffer): number {
  let crc = 0xffffffff;
  for (const byte of bytes) {
    crc ^= byte;
    for (let k = 0; k < 8; k++) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([head, body, crc]);
}

/** A valid RGB PNG of random (incompressible) pixels, `width`×`height`. */
function noisePng(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  const rows = Buffer.alloc((width * 3 + 1) * height);
  randomBytes(rows.length).copy(rows);
  for (let y = 0; y < height; y++) rows[y * (width * 3 + 1)] = 0;
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk("IHDR", ihdr),
    chunk("IDAT", deflateSync(rows, { level: 0 })),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

describe("real claude: a large image", () => {
  it("a 13 MiB image (base64 over 17 MiB) completes the turn", async () => {
    const s = await setups.create(scenarios.text("Noise."));
    const png = noisePng(2400, 1900);
    expect(png.length).toBeGreaterThan(13 * 1024 * 1024);
    const terminal = await imageTurn(s, "noise.png", png);
    expect(terminal.outcome, JSON.stringify(terminal.failure)).toBe("completed");
    expect(terminal.finalMessage).toBe("Noise.");
  }, 180_000);
});
