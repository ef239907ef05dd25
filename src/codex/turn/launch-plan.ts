import type { LaunchSpec } from "../../process/stdio-child.js";
import { codexLaunchSpec, protocolCwd } from "../launch/codex-launch.js";
import type { PreparedLaunch } from "./turn-runner-options.js";

/** The spawn, the cwd as Codex sees it, and the MCP thread config, decided before anything starts. */
export interface LaunchPlan {
  spec: LaunchSpec;
  protocolCwd: string;
  mcpThreadConfig: Record<string, unknown> | null;
}

/**
 * `codex app-server <appServerArgs…> <prepared.appServerArgs…>` in `cwd` on top of `env`. Pure; throws
 * `LaunchCwdError` when the cwd cannot be expressed in a WSL distribution.
 */
export function planLaunch(
  prepared: PreparedLaunch,
  options: { cwd: string; env: NodeJS.ProcessEnv; appServerArgs: readonly string[] },
): LaunchPlan {
  const args = ["app-server", ...options.appServerArgs, ...prepared.appServerArgs];
  return {
    mcpThreadConfig: prepared.mcpThreadConfig ?? null,
    protocolCwd: protocolCwd(prepared.codex, options.cwd),
    spec: codexLaunchSpec(prepared.codex, args, { cwd: options.cwd, baseEnv: options.env }),
  };
}
