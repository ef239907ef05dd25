/**
 * A Claude Code image is checked when the call is made and read (whole, to send it base64) once the turn
 * starts; a repository's file can change in between. Whatever it became, the read neither blocks (a FIFO with
 * no writer) nor runs without end (a link to /dev/zero), and the turn fails with `IMAGE_UNREADABLE`.
 */
import { execFileSync } from "node:child_process";
import { rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { readClaudeImage } from "../../src/claude/claude-images.js";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import { claudeSteps } from "../../src/testkit/fake-claude-steps.js";
import { InMemoryClaude } from "../../src/testkit/in-memory-claude.js";
import { PIXEL_PNG } from "../helpers/pixel-png.js";
import { tempDir } from "../helpers/temp.js";

const ENV = { IS_SANDBOX: "1", PATH: process.env.PATH };

/** What `a.png` is replaced with once the call has checked it. */
const SWAPS: Record<string, (file: string) => void> = {
  "a FIFO": (file) => execFileSync("mkfifo", [file]),
  "a link to /dev/zero": (file) => symlinkSync("/dev/zero", file),
  "nothing (deleted)": () => undefined,
  "a key file": (file) => writeFileSync(file, "-----BEGIN OPENSSH PRIVATE KEY-----"),
};

async function pngIn(): Promise<{ dir: string; file: string }> {
  const dir = await tempDir("claude-image-swap");
  const file = path.join(dir, "a.png");
  writeFileSync(file, PIXEL_PNG);
  return { dir, file };
}

describe("a Claude Code image that changes after the call checked it", () => {
  for (const [what, swap] of Object.entries(SWAPS)) {
    it(`replaced by ${what}: the turn fails IMAGE_UNREADABLE and claude is not started`, async () => {
      const { dir, file } = await pngIn();
      const fake = new InMemoryClaude({ turn: claudeSteps.textTurn("never") });
      const session = createClaudeCode({ launcher: fake.launcher, env: ENV }).runStreamed({
        prompt: "look",
        cwd: dir,
        images: ["a.png"],
      });
      rmSync(file);
      swap(file);
      const terminal = await session.result;
      expect(terminal.outcome).toBe("failed");
      expect(terminal.failure).toMatchObject({
        source: "spawn",
        code: "IMAGE_UNREADABLE",
        message: expect.stringContaining(`image ${file}: `),
      });
      expect(fake.launches).toEqual([]);
    });
  }

  it("readClaudeImage sends a PNG's bytes as image/png, and refuses a FIFO without blocking", async () => {
    const { dir, file } = await pngIn();
    await expect(readClaudeImage(file, "a.png")).resolves.toEqual({
      mediaType: "image/png",
      base64: PIXEL_PNG.toString("base64"),
    });
    const fifo = path.join(dir, "b.png");
    execFileSync("mkfifo", [fifo]);
    await expect(readClaudeImage(fifo, "b.png")).rejects.toMatchObject({
      code: "IMAGE_UNREADABLE",
      message: `image b.png: not a regular file: not read (${fifo})`,
    });
  });
});
