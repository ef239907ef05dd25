/**
 * A Codex inside WSL reads the turn's images itself: their paths reach `turn/start` in the distribution's own
 * syntax, like the cwd, or the turn fails before anything is spawned.
 */
import { describe, expect, it } from "vitest";
import type { CodexLaunch } from "../../src/codex/launch/codex-launch.js";
import { appServerLaunch } from "../../src/codex/app-server/app-server-launch.js";
import { prepareTurn, type LaunchContext } from "../../src/codex/turn/turn-launch.js";
import { steerTurn } from "../../src/codex/turn/turn-steer.js";
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

async function prepared(
  images: string[],
  launches: LaunchSpec[] = [],
): Promise<readonly string[] | undefined> {
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

describe("the images of a steer of a Codex inside WSL", () => {
  async function steered(path: string): Promise<unknown[]> {
    const launch = appServerLaunch(WSL_CODEX, [], { cwd: REPO, env: {} });
    const sent: unknown[] = [];
    const child = {
      codexVersion: "0.171.0",
      steer: async (_thread: string, _turn: string, input: unknown[]) => sent.push(...input),
      protocolPath: (file: string) => launch.protocolPath(file),
    };
    await steerTurn({
      inputs: [
        { type: "text", text: "and this" },
        { type: "localImage", path },
      ],
      running: async () => undefined,
      target: () => ({ child, threadId: "t", turnId: "u" }),
      state: () => "running",
      send: (step) => step,
    });
    return sent;
  }

  it("are sent as paths inside the distribution", async () => {
    expect(await steered(`${REPO}\\more.png`)).toEqual([
      { type: "text", text: "and this" },
      { type: "localImage", path: "/home/x/repo/more.png" },
    ]);
  });

  it("outside the distribution are STEER_INPUT_INVALID", async () => {
    await expect(steered("D:\\pics\\more.png")).rejects.toMatchObject({ code: "STEER_INPUT_INVALID" });
  });
});
