import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { command, sequence, text } from "../../src/testkit/model-scenarios.js";
import { codexCapabilities } from "../../src/codex/versions/capabilities.js";
import { testCodexBefore, testCodexVersion } from "../helpers/codex-bin.js";
import { steerAtFirstTool } from "../helpers/collect.js";
import { PIXEL_PNG } from "../helpers/pixel-png.js";
import { startRealCodex, type RealCodexFixture } from "../helpers/real-codex.js";

const PNG = PIXEL_PNG;
const GIF = Buffer.from("R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7", "base64");
const WEBP = Buffer.from("UklGRiQAAABXRUJQVlA4IBgAAAAwAQCdASoBAAEAAwA0JaQAA3AA/vuUAAA=", "base64");

let fixture: RealCodexFixture | null = null;
afterEach(async () => {
  await fixture?.dispose();
  fixture = null;
});

describe("real codex: an image turn", () => {
  it("the model request carries the local image the call named", async () => {
    fixture = await startRealCodex(text("A single transparent pixel."));
    await writeFile(path.join(fixture.cwd, "pixel.png"), PNG);
    const result = await fixture.client.run({
      prompt: "What is in the image?",
      cwd: fixture.cwd,
      images: ["pixel.png"],
    });
    expect(result.finalMessage).toBe("A single transparent pixel.");
    const body = JSON.stringify(fixture.model.responsesRequests()[0]?.body);
    expect(body).toContain("input_image");
    expect(body).toContain(`data:image/png;base64,${PNG.toString("base64")}`);
  });

  // measured on codex 0.72.0 and 0.87.0: the model request carries no input_image part for either; 0.120.0 sends both
  const oldCodex = testCodexBefore("0.120.0");
  it.skipIf(oldCodex)(
    `GIF and WebP images pass Rennet's content check and codex sends them to the model${
      oldCodex ? " [skipped: codex before 0.120 sends no GIF or WebP image to the model]" : ""
    }`,
    async () => {
      fixture = await startRealCodex(text("Two pixels."));
      await writeFile(path.join(fixture.cwd, "pixel.gif"), GIF);
      await writeFile(path.join(fixture.cwd, "pixel.webp"), WEBP);
      await fixture.client.run({
        prompt: "What is in them?",
        cwd: fixture.cwd,
        images: ["pixel.gif", "pixel.webp"],
      });
      const body = JSON.stringify(fixture.model.responsesRequests()[0]?.body);
      // codex 0.171 re-encodes a GIF as PNG and sends a WebP as it is
      expect(body.match(/"type":"input_image"/g)).toHaveLength(2);
      expect(body).toContain(`data:image/webp;base64,${WEBP.toString("base64")}`);
      expect(body).not.toContain("image content omitted");
    },
  );
});

describe("real codex: an image steered into a running turn", () => {
  it.skipIf(!codexCapabilities(testCodexVersion()).turnSteer)(
    "turn/steer carries the image's absolute path and the model's next request carries the image",
    async () => {
      fixture = await startRealCodex(sequence([command("sleep 1.5", { then: "unused" }), text("seen")]));
      await writeFile(path.join(fixture.cwd, "pixel.png"), PNG);
      const session = fixture.client.runStreamed({ prompt: "start", cwd: fixture.cwd });
      const { steered } = await steerAtFirstTool(session, [
        { type: "text", text: "STEER-IMAGE" },
        { type: "localImage", path: "pixel.png" },
      ]);
      await expect(steered).resolves.toBeUndefined();
      expect(fixture.sent("turn/steer")).toEqual([
        expect.objectContaining({
          input: [
            { type: "text", text: "STEER-IMAGE" },
            { type: "localImage", path: path.join(fixture.cwd, "pixel.png") },
          ],
        }),
      ]);
      const requests = fixture.model.responsesRequests();
      expect(JSON.stringify(requests[0]?.body)).not.toContain("input_image");
      expect(JSON.stringify(requests.at(-1)?.body)).toContain(
        `data:image/png;base64,${PNG.toString("base64")}`,
      );
    },
  );
});
