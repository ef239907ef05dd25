/**
 * Codex reads a turn's images itself and replaces a file it cannot decode (text named `.png`, an empty file)
 * with "image content omitted because it could not be processed", finishing the turn with no warning (codex
 * 0.171 measured). So the content of each image is checked before anything starts, as for Claude Code.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { imageFileContentType } from "../../src/call/image-content.js";
import { createCodex } from "../../src/codex/client/codex-client.js";
import type { HarnessEvent } from "../../src/harness/events.js";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { runCli } from "../cli/helpers/cli-harness.js";
import { PIXEL_PNG } from "../helpers/pixel-png.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "rennet-image-content-"));
writeFileSync(path.join(dir, "text.png"), "not an image at all\n");
writeFileSync(path.join(dir, "empty.png"), "");
writeFileSync(path.join(dir, "pixel.png"), PIXEL_PNG);
writeFileSync(
  path.join(dir, "pixel.gif"),
  Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64"),
);
writeFileSync(
  path.join(dir, "pixel.webp"),
  Buffer.from("UklGRiQAAABXRUJQVlA4IBgAAAAwAQCdASoBAAEAAwA0JaQAA3AA/vuUAAA=", "base64"),
);

async function drain(events: AsyncIterable<HarnessEvent>): Promise<void> {
  for await (const event of events) void event;
}

describe("the content of a Codex turn's images", () => {
  it("a .png that is text, or an empty file, is IMAGE_UNREADABLE before anything is spawned", () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("never") });
    const codex = createCodex({ launcher: fake.launcher, env: {} });
    expect(() => codex.runStreamed({ prompt: "x", cwd: dir, images: ["text.png"] })).toThrow(
      expect.objectContaining({
        code: "IMAGE_UNREADABLE",
        message: "image text.png: its content is not a PNG, JPEG, GIF or WebP image",
      }),
    );
    expect(() => codex.runStreamed({ prompt: "x", cwd: dir, images: ["empty.png"] })).toThrow(
      expect.objectContaining({
        code: "IMAGE_UNREADABLE",
        message: "image empty.png: the file is empty, not a PNG, JPEG, GIF or WebP image",
      }),
    );
    expect(fake.launches).toHaveLength(0);
  });

  it("PNG, GIF and WebP images (codex takes all three) reach turn/start", async () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("ok") });
    const codex = createCodex({ launcher: fake.launcher, env: {} });
    await codex.run({ prompt: "x", cwd: dir, images: ["pixel.png", "pixel.gif", "pixel.webp"] });
    expect(fake.launches[0]?.peer.requestsOf("turn/start")[0]?.params).toMatchObject({
      input: [
        { type: "text" },
        { type: "localImage", path: path.join(dir, "pixel.png") },
        { type: "localImage", path: path.join(dir, "pixel.gif") },
        { type: "localImage", path: path.join(dir, "pixel.webp") },
      ],
    });
  });

  it("a steer image that is text is STEER_INPUT_INVALID, and nothing is sent", async () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("x") });
    const session = createCodex({ launcher: fake.launcher, env: {} }).runStreamed({ prompt: "hi", cwd: dir });
    await expect(
      session.steer([
        { type: "text", text: "see" },
        { type: "localImage", path: "text.png" },
      ]),
    ).rejects.toMatchObject({
      code: "STEER_INPUT_INVALID",
      message: "session.steer(): image text.png: its content is not a PNG, JPEG, GIF or WebP image",
    });
    await drain(session.events);
    expect(fake.launches[0]?.peer.requestsOf("turn/steer") ?? []).toHaveLength(0);
  });

  it("CLI: an --image that is text is exit 2 before any spawn", async () => {
    const result = await runCli(["codex", "run", "--image", path.join(dir, "text.png"), "look"], {
      script: { turn: fakeSteps.textTurn("never") },
    });
    expect(result.code).toBe(2);
    expect(result.stderr.text).toContain("its content is not a PNG, JPEG, GIF or WebP image");
    expect(result.fake.launches).toHaveLength(0);
  });

  it("the signature read refuses a file that is no regular file when opened (a FIFO), never waiting on it", () => {
    // the path is checked to be a file first; what is opened may have been replaced since
    const fifo = path.join(dir, "swapped.png");
    execFileSync("mkfifo", [fifo]);
    expect(() => imageFileContentType(fifo, "swapped.png")).toThrow(
      expect.objectContaining({
        code: "IMAGE_UNREADABLE",
        message: `image swapped.png: is not a file (${fifo})`,
      }),
    );
  });
});
