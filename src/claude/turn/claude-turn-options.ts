import type { ApprovalOptions, TurnLimits } from "../../harness/approvals.js";
import type { ParseFailure, ProjectTrust } from "../../harness/events.js";
import type { LaunchSpec, Launcher } from "../../process/stdio-child.js";
import type { ChildSession, ChildSessionOptions } from "../../session/child-session.js";
import type { ClaudeImage } from "../stdin-messages.js";
import type { ToolSet } from "../../tools/tool-set.js";
import type * as ClaudeTurnProtocolModule from "./claude-turn-protocol.js";

/**
 * How many synthetic "You MUST call the StructuredOutput tool" reminders a structured-output turn may get
 * before Rennet stops it: Claude Code 2.1.332 gives up by itself after one, 2.0.77–2.1.112 remind without
 * bound (hundreds of model requests a minute).
 */
export const MAX_STRUCTURED_OUTPUT_REMINDERS = 3;

/** Everything a turn needs that may take I/O, decided before the spawn. */
export interface PreparedClaudeTurn {
  spec: LaunchSpec;
  launcher: Launcher;
  /** `ChildSession.start`, loaded with the session's first launch. */
  startChild(options: ChildSessionOptions): ChildSession;
  /** Sent before the prompt in the user message. */
  images: readonly ClaudeImage[];
  /** Removes what preparing made (the session's temporary directory); runs once the tree is gone. */
  cleanup(): Promise<void>;
}

/** Checks the `structured_output` of a completed structured-output turn against the caller's schema. */
export type StructuredOutputCheck = (
  value: unknown,
) => { ok: true; value: unknown } | { ok: false; failure: ParseFailure };

export interface ClaudeTurnRunnerOptions {
  prompt: string;
  /** Finds claude, checks the bypass refusal, reads the images, makes the temporary directory; may reject. */
  prepare(signal: AbortSignal): Promise<PreparedClaudeTurn>;
  /** The executable a failure names until `prepare` has decided the launch. */
  command: string;
  signal?: AbortSignal;
  /** Overall deadline covering the whole session; null for none. */
  turnMs: number | null;
  interruptGraceMs?: number;
  /** Set for a `--json-schema` turn. */
  structuredOutput?: StructuredOutputCheck;
  /** The `--max-budget-usd` of the turn, if any. */
  maxBudgetUsd?: number;
  /** Routes Claude's permission prompts and questions to the app (the turn runs in a prompting mode). */
  approvals?: ApprovalOptions;
  /** Limits checked as events arrive (the cost limit is also Claude's own `--max-budget-usd`). */
  limits?: TurnLimits;
  /** The turn's working directory (relative steer image paths resolve against it). */
  cwd?: string;
  /** The trust the cwd's repository got (on `session.started` and the terminal frame). */
  trust: ProjectTrust;
  sessionId?: string;
  /** The session id of the kept thread the turn resumes (`--resume`), if any. */
  resumes?: string;
  /** The session's app tools (checked), served in-process over the control channel; null or absent: none. */
  tools?: ToolSet | null;
  /** Loads the protocol half (the client's door); called once the child is spawned, or by an early steer. */
  loadProtocol(): Promise<typeof ClaudeTurnProtocolModule>;
  /** Clock for `at` stamps; tests inject a fixed one. */
  now?: () => Date;
}
