import { RennetError } from "../../errors.js";
import { randomHex } from "../../random-id.js";
import { APP_TOOLS_TOKEN_ENV } from "../../tools/app-tools-names.js";
import { launchExecutable } from "../../discovery/executable-launch.js";
import type { ReadThrottle } from "../../session/read-throttle.js";
import type { TimerSet } from "../../session/timer-set.js";
import { appServerLaunch } from "../app-server/app-server-launch.js";
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
}

/**
 * Turns the runner options into what a turn child starts from: runs `prepare` (or takes the given codex) while
 * the protocol half loads. Each step is awaited through `until` (which rejects once the session has ended);
 * a failing `prepare` is reported before a failing load. Throws `LaunchCwdError` for a WSL cwd.
 */
export async function prepareTurn(
  options: TurnRunnerOptions,
  context: LaunchContext,
  until: <T>(step: Promise<T>) => Promise<T>,
): Promise<{ input: TurnChildInput; runtime: TurnRuntime }> {
  const preparing = prepareLaunch(options, context);
  // the protocol half loads while `prepare` waits on discovery and the reaper
  const loading = loadRuntime(options.runtime);
  const input = await until(preparing);
  const runtime = await until(loading);
  return { input, runtime };
}

async function prepareLaunch(options: TurnRunnerOptions, context: LaunchContext): Promise<TurnChildInput> {
  const prepared: PreparedLaunch = options.prepare
    ? await options.prepare(context.signal)
    : { codex: options.codex ?? { type: "native", command: "codex" }, appServerArgs: [] };
  context.executable(launchExecutable(prepared.codex));
  const launcher = prepared.launcher ?? options.launcher;
  if (launcher === undefined)
    throw new RennetError("INTERNAL_ERROR", "no launcher: the runner options and prepare gave none");
  const tools = options.tools ?? null;
  // the app tools' loopback MCP server (codex before dynamic tools) admits only this child: the secret is in
  // its environment alone, never in argv
  const appToolsSecret = tools === null ? null : randomHex(32);
  const baseEnv = options.env ?? process.env;
  const env = appToolsSecret === null ? baseEnv : { ...baseEnv, [APP_TOOLS_TOKEN_ENV]: appToolsSecret };
  const args = [...(options.appServerArgs ?? []), ...prepared.appServerArgs];
  const cwd = context.cwd;
  return {
    launch: appServerLaunch(prepared.codex, args, { cwd, env }),
    launcher,
    mcpThreadConfig: prepared.mcpThreadConfig ?? null,
    local: { cwd, env },
    request: options,
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

async function loadRuntime(runtime: TurnRunnerOptions["runtime"]): Promise<TurnRuntime> {
  return typeof runtime === "function" ? runtime() : runtime;
}
