/**
 * A Claude Code image travels base64 in one stdin line, so its file is read whole: one larger than the Messages
 * API's request size limit is refused by its size, before anything starts and without reading it (a 450 MB
 * file once took about 1.1 GB and ended in "Cannot create a string longer than …" with no code).
 */
import { closeSync, ftruncateSync, mkdtempSync, openSync, writeSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createClaudeCode } from "../../src/claude/client/claude-client.js";
import type { HarnessEvent } from "../../src/harness/events.js";
import { claudeSteps } from "../../src/testkit/fake-claude-steps.js";
import { InMemoryClaude } from "../../src/testkit/in-memory-claude.js";
import { runClaudeCli } from "../cli/helpers/claude-cli-harness.js";
import { PIXEL_PNG } from "../helpers/pixel-png.js";

const ENV = { IS_SANDBOX: "1", PATH: process.env.PATH };
/** The largest image file sent to Claude Code: the Messages API's request size limit, 32 MB. */
const CLAUDE_IMAGE_MAX_BYTES = 32 * 1024 * 1024;
const dir = mkdtempSync(path.join(os.tmpdir(), "rennet-claude-image-size-"));

/** A sparse file of `size` bytes that starts as a PNG (no disk is used for the rest). */
function sparsePng(name: string, size: number): string {
  const file = path.join(dir, name);
  const fd = openSync(file, "w");
  writeSync(fd, PIXEL_PNG);
  ftruncateSync(fd, size);
  closeSync(fd);
  return file;
}

const huge = sparsePng("huge.png", 450 * 1024 * 1024);
const over = sparsePng("over.png", CLAUDE_IMAGE_MAX_BYTES + 1);
sparsePng("at-limit.png", CLAUDE_IMAGE_MAX_BYTES);

async function drain(events: AsyncIterable<HarnessEvent>): Promise<void> {
  for await (const event of events) void event;
}

describe("the size of a Claude Code image", () => {
  it("a file over the limit is IMAGE_UNREADABLE naming its size and the limit, before anything starts", () => {
    const fake = new InMemoryClaude({ turn: claudeSteps.textTurn("never") });
    const claude = createClaudeCode({ launcher: fake.launcher, env: ENV });
    expect(() => claude.runStreamed({ prompt: "hi", cwd: dir, images: ["huge.png"] })).toThrow(
      expect.objectContaining({
        code: "IMAGE_UNREADABLE",
        message:
          "image huge.png: 450 MB (471859200 bytes) is larger than the 32 MB a Claude Code image may be " +
          "(the Messages API's request size limit); give a smaller image",
      }),
    );
    expect(() => claude.runStreamed({ prompt: "hi", cwd: dir, images: [over] })).toThrow(
      expect.objectContaining({
        code: "IMAGE_UNREADABLE",
        message: expect.stringContaining("33554433 bytes"),
      }),
    );
    expect(fake.launches).toEqual([]);
  });

  it("a file of exactly the limit passes the check", () => {
    const fake = new InMemoryClaude({ turn: claudeSteps.textTurn("ok") });
    const claude = createClaudeCode({ launcher: fake.launcher, env: ENV });
    const session = claude.runStreamed({ prompt: "hi", cwd: dir, images: ["at-limit.png"] });
    session.cancel();
  });

  it("an image whose echoed user line is longer than the default line cap completes the turn", async () => {
    // Claude Code 2.0 echoes the user message (the image's base64) back on stdout as one line
    const echoing = fileURLToPath(new URL("../fixtures/claude/echoing-claude.js", import.meta.url));
    sparsePng("echoed.png", 13 * 1024 * 1024);
    const claude = createClaudeCode({ claude: echoing, env: ENV });
    const terminal = await claude.runStreamed({ prompt: "hi", cwd: dir, images: ["echoed.png"] }).result;
    expect(terminal.outcome, JSON.stringify(terminal.failure)).toBe("completed");
    expect(terminal.finalMessage).toBe("ok");
  });

  it("a steer image over the limit is STEER_INPUT_INVALID, and nothing is written", async () => {
    const fake = new InMemoryClaude({ turn: claudeSteps.textTurn("x") });
    const session = createClaudeCode({ launcher: fake.launcher, env: ENV }).runStreamed({
      prompt: "go",
      cwd: dir,
    });
    await expect(
      session.steer([
        { type: "text", text: "see" },
        { type: "localImage", path: huge },
      ]),
    ).rejects.toMatchObject({
      code: "STEER_INPUT_INVALID",
      message: expect.stringContaining("450 MB (471859200 bytes) is larger than the 32 MB"),
    });
    session.cancel();
    await drain(session.events);
    expect(fake.launches.length === 0 ? 1 : fake.peer.linesOf("user").length).toBe(1);
  });

  it("CLI: a claude --image over the limit is exit 2 before any spawn", async () => {
    const { code, stderr, fake } = await runClaudeCli(["claude", "run", "--image", huge, "look"]);
    expect(code).toBe(2);
    expect(stderr.text).toContain("is larger than the 32 MB a Claude Code image may be");
    expect(fake.launches).toEqual([]);
  });
});
