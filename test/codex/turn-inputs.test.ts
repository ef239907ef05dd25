import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createCodex } from "../../src/codex/client/codex-client.js";
import { InvalidTurnInputError, validateResumeId } from "../../src/codex/client/turn-inputs.js";
import { fakeSteps } from "../../src/testkit/fake-script.js";
import { InMemoryAppServer } from "../../src/testkit/in-memory-app-server.js";
import { runCli } from "../cli/helpers/cli-harness.js";

const dir = mkdtempSync(path.join(os.tmpdir(), "rennet-images-"));
const image = path.join(dir, "shot.png");
writeFileSync(image, Buffer.from([0x89, 0x50, 0x4e, 0x47]));

describe("images and reasoning summaries", () => {
  it("sends images as localImage inputs (absolute paths) and the summary mode on turn/start", async () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("ok") });
    const codex = createCodex({ launcher: fake.launcher, env: {} });
    await codex.run({ prompt: "what is this?", cwd: dir, images: ["shot.png"], reasoningSummary: "concise" });
    expect(fake.launches[0]?.peer.requestsOf("turn/start")[0]?.params).toMatchObject({
      input: [
        { type: "text", text: "what is this?" },
        { type: "localImage", path: image },
      ],
      summary: "concise",
    });
  });

  it("a missing image or an unknown summary mode throws before anything is spawned", () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("never") });
    const codex = createCodex({ launcher: fake.launcher, env: {} });
    expect(() => codex.runStreamed({ prompt: "x", cwd: dir, images: ["nope.png"] })).toThrow(
      InvalidTurnInputError,
    );
    expect(() => codex.runStreamed({ prompt: "x", cwd: dir, reasoningSummary: "loud" as never })).toThrow(
      /reasoningSummary "loud" is not one of auto, concise, detailed, none/,
    );
    expect(fake.launches).toHaveLength(0);
  });

  it("CLI: --image and --reasoning-summary reach turn/start; a missing image is exit 2 before any spawn", async () => {
    const ok = await runCli(["codex", "run", "--image", image, "--reasoning-summary", "none", "look"], {
      script: { turn: fakeSteps.textTurn("ok") },
    });
    expect(ok.code).toBe(0);
    expect(ok.fake.launches[0]?.peer.requestsOf("turn/start")[0]?.params).toMatchObject({
      input: [{ type: "text" }, { type: "localImage", path: image }],
      summary: "none",
    });
    const missing = await runCli(["codex", "run", "--image", path.join(dir, "gone.png"), "look"], {
      script: { turn: fakeSteps.textTurn("never") },
    });
    expect(missing.code).toBe(2);
    expect(missing.stderr.text).toContain("--image: image");
    expect(missing.stderr.text).toContain("not found");
    expect(missing.fake.launches).toHaveLength(0);
  });
});

describe("validateResumeId", () => {
  it("accepts a UUID in every form codex parses (hyphenated, 32 digits, urn:uuid:, braces), trimmed", () => {
    const id = "0199f0fa-4e00-7000-8000-000000000001";
    expect(validateResumeId(id)).toBe(id);
    expect(validateResumeId(` ${id}\n`)).toBe(id);
    expect(validateResumeId(`urn:uuid:${id}`)).toBe(`urn:uuid:${id}`);
    expect(validateResumeId(`{${id}}`)).toBe(`{${id}}`);
    expect(validateResumeId(id.replaceAll("-", ""))).toBe(id.replaceAll("-", ""));
    expect(validateResumeId(id.toUpperCase())).toBe(id.toUpperCase());
  });

  // codex refuses these as "invalid group count" (checked on 0.72 and 0.171)
  it.each([
    "",
    "  ",
    "thr_fake_0001",
    "0199f0fa-4e00",
    "../../etc",
    42,
    null,
    "0199f0fa4e00-7000-8000-000000000001",
    "urn:uuid:0199f0fa4e0070008000000000000001",
    "{0199f0fa4e0070008000000000000001}",
  ])("refuses %j with RESUME_ID_INVALID before anything starts", (value) => {
    expect(() => validateResumeId(value)).toThrow(
      expect.objectContaining({ code: "RESUME_ID_INVALID", name: "InvalidTurnInputError" }),
    );
  });

  it("is checked by runStreamed before anything is launched", () => {
    const fake = new InMemoryAppServer({ turn: fakeSteps.textTurn("never") });
    const codex = createCodex({ launcher: fake.launcher, env: {} });
    expect(() => codex.runStreamed({ prompt: "x", resume: "not-a-thread" })).toThrow(InvalidTurnInputError);
    expect(fake.launches).toHaveLength(0);
  });
});
