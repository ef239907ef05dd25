/**
 * A Codex inside WSL reads the turn's images itself: their paths reach `turn/start` in the distribution's own
 * syntax, like the cwd, or the turn fails before anything is spawned.
 */
import { describe, expect, it } from "vitest";
import type { CodexLaunch } from "../../src/codex/launch/codex-launch.js";
import { prepareTurn, type LaunchContext } from "../../src/codex/turn/turn-launch.js";
import type { TurnRunnerOptions } from "../../src/codex/turn/turn-runner-options.js";
import type { TurnRuntime } from "../../src/codex/turn/turn-child.js";
import type { LaunchSpec, StdioChild } from "../../src/process/stdio-child.js";

const WSL_CODEX: CodexLaunch = {
  type: "wsl",
  wslExe: "C:\\Windows\\System32\\wsl.exe",
  distro: "Ubuntu",
  argv: ["/usr/local/bin/codex"],
};
const REPO = "\\\\wsl.localhost\\Ubuntu\\home\\x\\repo";

async function prepared(images: string[], launches: LaunchSpec[] = []): Promise<string[] | undefined> {
  const options = {
    prompt: "look",
    images,
    codex: WSL_CODEX,
    runtime: {} as TurnRuntime,
    launcher: (spec: LaunchSpec) => {
      launches.push(spec);
      return {} as StdioChild;
    },
  } as unknown as TurnRunnerOptions;
  const context = {
    sessionId: "s",
    cwd: REPO,
    signal: new AbortController().signal,
    executable: () => undefined,
    started: () => undefined,
  } as unknown as LaunchContext;
  const { input } = await prepareTurn(options, context, (step) => step);
  return input.request.images;
}

describe("the images of a turn of a Codex inside WSL", () => {
  it("are sent as paths inside the distribution", async () => {
    const images = await prepared([`${REPO}\\shot.png`, "\\\\wsl$\\Ubuntu\\tmp\\b.png", "/home/x/c.png"]);
    expect(images).toEqual(["/home/x/repo/shot.png", "/tmp/b.png", "/home/x/c.png"]);
  });

  it("fail before anything is spawned when an image is not inside the distribution", async () => {
    const launches: LaunchSpec[] = [];
    await expect(prepared(["D:\\pics\\shot.png"], launches)).rejects.toMatchObject({
      code: "LAUNCH_CWD_UNMAPPABLE",
    });
    expect(launches).toHaveLength(0);
  });
});
