import { describe, expect, it } from "vitest";
import type { AppToolContent } from "../../src/harness/events.js";
import { capToolOutput } from "../../src/tools/tool-output-cap.js";
import { toolOutput } from "../../src/tools/tool-output.js";

const bytes = (content: readonly AppToolContent[]): number =>
  content.reduce((sum, part) => sum + Buffer.byteLength(JSON.stringify(part), "utf8"), 0);
const text = (value: string): AppToolContent => ({ type: "text", text: value });

describe("capToolOutput", () => {
  it("keeps an answer that fits as it is", () => {
    const content = [text("a".repeat(100)), { type: "image" as const, url: "https://example.test/a.png" }];
    expect(capToolOutput(content, 1_000)).toEqual(content);
  });

  it("cuts the first text that does not fit, leaves out the rest and says so, within the bound", () => {
    const content = [text("head"), text("x".repeat(5_000)), text("tail")];
    const capped = capToolOutput(content, 1_000);
    expect(bytes(capped)).toBeLessThanOrEqual(1_000);
    expect(capped[0]).toEqual(text("head"));
    expect(capped[1]).toMatchObject({ type: "text", text: expect.stringMatching(/^x{500,}$/) });
    expect(capped).toHaveLength(3);
    expect(capped[2]).toMatchObject({
      text: expect.stringMatching(/^\[Rennet cut this result to 0\.0 MiB of its 0\.0 MiB/),
    });
  });

  it("measures the JSON form: control characters and astral characters take their escaped size, no pair is split", () => {
    const controls = capToolOutput([text("\u0001".repeat(10_000))], 2_000);
    expect(bytes(controls)).toBeLessThanOrEqual(2_000);
    const astral = capToolOutput([text("😀".repeat(5_000))], 2_000);
    expect(bytes(astral)).toBeLessThanOrEqual(2_000);
    const cut = astral[0]?.type === "text" ? astral[0].text : "";
    expect(cut.length % 2).toBe(0);
    expect(cut).toMatch(/^(😀)+$/u);
  });

  it("replaces an image that does not fit by a note", () => {
    const capped = capToolOutput(
      [text("see"), { type: "image", url: `data:image/png;base64,${"A".repeat(5_000)}` }],
      1_000,
    );
    expect(capped.map((part) => part.type)).toEqual(["text", "text", "text"]);
    expect(capped[1]).toMatchObject({
      text: expect.stringMatching(/^\[an image of 0\.0 MiB was left out\]$/),
    });
  });
});

describe("toolOutput", () => {
  it("cuts a 20 MiB answer to the bound the agent's output lines leave room for", () => {
    const output = toolOutput("y".repeat(20 * 1024 * 1024));
    expect(output.ok).toBe(true);
    const content = output.ok ? output.content : [];
    // the documented bound: 4 MiB as JSON
    expect(bytes(content)).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(content.at(-1)).toMatchObject({ text: expect.stringContaining("of its 20.0 MiB") });
  });
});
