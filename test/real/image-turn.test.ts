import { writeFile } from "node:fs/promises";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { text } from "../../src/testkit/model-scenarios.js";
import { PIXEL_PNG } from "../helpers/pixel-png.js";
import { startRealCodex, type RealCodexFixture } from "../helpers/real-codex.js";

const PNG = PIXEL_PNG;

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
});
