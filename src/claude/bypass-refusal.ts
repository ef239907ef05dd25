import type { ClaudePermissionMode } from "./turn-argv.js";
import { ClaudeBypassRefusedError } from "./errors.js";

/** Who would start Claude Code, and with what. */
export interface BypassContext {
  permissionMode: ClaudePermissionMode;
  /** The effective user id (`process.getuid()`), or null where there is none (Windows). */
  uid: number | null;
  /** The environment Claude Code will get. */
  env: NodeJS.ProcessEnv;
}

/**
 * The refusal Claude Code would answer with, predicted before it starts: as root, `bypassPermissions` exits at
 * once ("cannot be used with root/sudo privileges") unless `IS_SANDBOX` is exactly `1` (measured on 2.1.332;
 * `yes` is refused). Null when the turn may start. Pure.
 */
export function bypassRefusal(context: BypassContext): ClaudeBypassRefusedError | null {
  if (context.permissionMode !== "bypassPermissions" || context.uid !== 0) return null;
  return context.env.IS_SANDBOX === "1" ? null : new ClaudeBypassRefusedError();
}
