/**
 * What a Claude Code turn needs that takes I/O, done between the call and the spawn: the reaper, the launcher,
 * which Claude Code runs, the bypass check, the images, and the session's own temporary directory.
 */
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { Launcher } from "../../process/stdio-child.js";
import { bypassRefusal } from "../bypass-refusal.js";
import { absoluteConfigDir } from "../claude-config-dir.js";
import { assertClaudeCallSupported, claudeCapabilities, type ClaudeCallNeeds } from "../capabilities.js";
import { CLAUDE_STDOUT_MAX_LINE_BYTES, readClaudeImage } from "../claude-images.js";
import type { PreparedClaudeTurn } from "../turn/claude-turn-options.js";
import type { ClaudePermissionMode } from "../turn-argv.js";
import { launchSpec, type ResolvedExecutable } from "../../discovery/executable-launch.js";
import { envGet } from "../../discovery/platform-env.js";
import { CLAUDE_NAMING } from "../discovery/claude-spec.js";
import { reapBeforeSpawn } from "../../process/reap-orphans.js";
import { createStdioLauncher } from "../../process/stdio-launcher.js";
import { ChildSession } from "../../session/child-session.js";

/** Starts `claude`; its stdout lines may be as long as an echoed user message carrying the largest image. */
const spawnClaudeChild: Launcher = createStdioLauncher({ maxLineBytes: CLAUDE_STDOUT_MAX_LINE_BYTES });

/** A call checked and turned into what to start, before any I/O. */
export interface ClaudeTurnPlan {
  /** Claude's arguments (`claudeTurnArgs`). */
  args: readonly string[];
  cwd: string;
  /** The child's environment: the client's with the call's on top. */
  env: NodeJS.ProcessEnv;
  /** Absolute paths, checked to be readable files. */
  imageFiles: readonly string[];
  /** The `--permission-mode` in the arguments (root refuses `bypassPermissions` without `IS_SANDBOX=1`). */
  permissionMode: ClaudePermissionMode;
  /** What the call asks of the Claude Code that runs it (checked once its version is known). */
  needs: ClaudeCallNeeds;
  /** Which Claude Code runs (the client resolves it once per working directory). */
  resolve(signal: AbortSignal): Promise<ResolvedExecutable>;
  /** An injected launcher (tests): no executable is looked up. */
  launcher?: Launcher;
  reapOrphans: boolean;
}

/**
 * Prepares the launch. Throws `CLAUDE_UNAVAILABLE`, `CLAUDE_BYPASS_REFUSED` (root without `IS_SANDBOX=1`; the
 * library never sets it), `CLAUDE_UNSUPPORTED_VERSION` (the resolved claude states a version that cannot do
 * what the call needs; an unknown version is checked at the session's init instead), `IMAGE_UNREADABLE`, or an
 * OS error making the temporary directory.
 */
export async function prepareClaudeTurn(
  plan: ClaudeTurnPlan,
  signal: AbortSignal,
): Promise<PreparedClaudeTurn> {
  const reaping = plan.reapOrphans ? reapBeforeSpawn() : undefined;
  const refusal = bypassRefusal({
    permissionMode: plan.permissionMode,
    uid: typeof process.getuid === "function" ? process.getuid() : null,
    env: plan.env,
  });
  if (refusal !== null) throw refusal;
  const [claude, images] = await Promise.all([
    plan.resolve(signal),
    Promise.all(plan.imageFiles.map((file) => readClaudeImage(file))),
  ]);
  if (claude.version !== null) assertClaudeCallSupported(claudeCapabilities(claude.version), plan.needs);
  const launcher = plan.launcher ?? spawnClaudeChild;
  await reaping;
  // Claude's task files and its messaging socket go here, not to the shared temporary directory
  const tmpDir = path.resolve(
    await mkdtemp(
      path.join(envGet(plan.env, "CLAUDE_CODE_TMPDIR", process.platform) ?? os.tmpdir(), "rennet-claude-"),
    ),
  );
  return {
    spec: launchSpec(
      claude.launch,
      plan.args,
      { cwd: plan.cwd, baseEnv: { ...plan.env, ...absoluteConfigDir(plan.env), CLAUDE_CODE_TMPDIR: tmpDir } },
      CLAUDE_NAMING,
    ),
    launcher,
    startChild: (options) => ChildSession.start(options),
    images,
    cleanup: () => rm(tmpDir, { recursive: true, force: true, maxRetries: 3, retryDelay: 50 }),
  };
}
