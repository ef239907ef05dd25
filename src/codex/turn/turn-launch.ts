import { RennetError } from "../../errors.js";
import { randomHex } from "../../random-id.js";
import { launchExecutable } from "../../discovery/executable-launch.js";
import { prestartedLauncher } from "../../process/prestarted-launcher.js";
import type { StdioChild } from "../../process/stdio-child.js";
import type { ReadThrottle } from "../../session/read-throttle.js";
import { runnerUnavailable } from "../../session/deferred-session.js";
import { ENDED } from "../../session/session-core.js";
import type { TimerSet } from "../../session/timer-set.js";
import { appServerLaunch } from "../app-server/app-server-launch.js";
import { assertProjectConfigsAreFiles } from "../trust/project-config-entries.js";
import { codexHomeOf } from "../trust/untrusted-project-guard.js";
import type { TurnChildInput, TurnRuntime } from "./turn-child.js";
import type { PreparedLaunch, TurnRunnerOptions } from "./turn-runner-options.js";
import type { TurnTimeouts } from "./turn-timeouts.js";

/** The runner's own parts that a launch is planned with. */
export interface LaunchContext {
  sessionId: string;
  /** The cwd on this machine (the spawn cwd). */
  cwd: string;
  timeouts: TurnTimeouts;
  throttle: ReadThrottle;
  timers: TimerSet;
  /** Aborted when the session ends: stops whatever `prepare` still runs. */
  signal: AbortSignal;
  /** Told the executable as soon as `prepare` decided it (failures after that name it). */
  executable(command: string): unknown;
  /** Told the child once started: until a turn child holds it, the context's owner ends it with the session. */
  started(child: StdioChild): void;
}

/**
 * Turns the runner options into what a turn child starts from: runs `prepare` (or takes the given codex), starts
 * codex (told to the context: its owner until the turn child takes it), then loads the protocol half while codex
 * starts up. The turn child's launcher hands it that child first. Each step is awaited through `until` (which
 * rejects once the session has ended); nothing is started once it has. Throws `LaunchCwdError` for a WSL cwd
 * or image that is not inside the distribution, and `PROJECT_CONFIG_NOT_A_FILE` before anything starts in a
 * directory with a `.codex/config.toml` that is not a regular file.
 */
export async function prepareTurn(
  options: TurnRunnerOptions,
  context: LaunchContext,
  until: <T>(step: Promise<T>) => Promise<T>,
): Promise<{ input: TurnChildInput; runtime: TurnRuntime }> {
  const input = await until(prepareLaunch(options, context));
  if (context.signal.aborted) throw ENDED;
  const child = input.launcher(input.launch.spec);
  context.started(child);
  const runtime = await until(loadRuntime(options.runtime));
  return { input: { ...input, launcher: prestartedLauncher(child, input.launcher) }, runtime };
}

async function prepareLaunch(options: TurnRunnerOptions, context: LaunchContext): Promise<TurnChildInput> {
  // before `prepare` too: its MCP inventory starts codex in the cwd
  await assertProjectConfigsAreFiles(context.cwd, codexHomeOf(options.env ?? process.env));
  const prepared: PreparedLaunch = options.prepare
    ? await options.prepare(context.signal)
    : { codex: options.codex ?? { type: "native", command: "codex" }, appServerArgs: [] };
  context.executable(launchExecutable(prepared.codex));
  const launcher = prepared.launcher ?? options.launcher;
  if (launcher === undefined)
    throw new RennetError("INTERNAL_ERROR", "no launcher: the runner options and prepare gave none");
  const tools = options.tools ?? null;
  // the app tools' loopback MCP server (codex before dynamic tools) admits only this child: the secret reaches
  // it in the thread's config on stdin alone, never in argv or the environment (which codex hands on to every
  // command the agent runs)
  const appToolsSecret = tools === null ? null : randomHex(32);
  const env = options.env ?? process.env;
  const args = [...(options.appServerArgs ?? []), ...prepared.appServerArgs];
  const cwd = context.cwd;
  const launch = appServerLaunch(prepared.codex, args, { cwd, env });
  // codex reads the images itself: inside WSL by their path in the distribution, like the cwd
  const images = options.images?.map((file) => launch.protocolPath(file));
  return {
    launch,
    launcher,
    mcpThreadConfig: prepared.mcpThreadConfig ?? null,
    mcpServersMayStart: prepared.mcpServersMayStart ?? true,
    local: { cwd, env },
    request: images === undefined ? options : { ...options, images },
    ...(options.approvals ? { approvals: options.approvals } : {}),
    tools,
    appToolsSecret,
    ...(options.loadAppToolsMcp ? { loadAppToolsMcp: options.loadAppToolsMcp } : {}),
    sessionId: context.sessionId,
    timeouts: context.timeouts,
    throttle: context.throttle,
    timers: context.timers,
  };
}

/** The turn's protocol half; one that cannot be loaded rejects `RUNNER_UNAVAILABLE`. */
async function loadRuntime(runtime: TurnRunnerOptions["runtime"]): Promise<TurnRuntime> {
  if (typeof runtime !== "function") return runtime;
  try {
    return await runtime();
  } catch (error) {
    throw runnerUnavailable(error);
  }
}
