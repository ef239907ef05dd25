import { describe, expect, it } from "vitest";
import { prestartedLauncher } from "../../src/process/prestarted-launcher.js";
import type { LaunchSpec, StdioChild } from "../../src/process/stdio-child.js";

/** A stand-in child; only its identity matters here. */
const child = (name: string): StdioChild => ({ name }) as unknown as StdioChild;

describe("prestartedLauncher", () => {
  it("gives the started child to the first launch and starts anew through the launcher for every later one", () => {
    const specs: LaunchSpec[] = [];
    const started = child("started");
    const launch = prestartedLauncher(started, (spec) => {
      specs.push(spec);
      return child(`fresh ${specs.length}`);
    });
    const spec: LaunchSpec = { command: "codex", args: ["app-server"] };
    expect(launch(spec)).toBe(started);
    expect(specs).toEqual([]);
    expect(launch(spec)).toEqual(child("fresh 1"));
    expect(launch(spec)).toEqual(child("fresh 2"));
    expect(specs).toEqual([spec, spec]);
  });
});
