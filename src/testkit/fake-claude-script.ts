/**
 * The data a fake `claude` follows. Scripts are plain JSON, so the same script drives the in-memory fake and the
 * executable one (`FAKE_CLAUDE_BIN`). The fake speaks Claude Code's stream-json on stdio: it reads user messages
 * and control requests, and writes the lines its script says. Build steps with `claudeSteps`.
 */

/** How the fake ends: an exit code or a signal. */
export interface FakeClaudeExit {
  code?: number | null;
  signal?: string | null;
}

/** One thing the fake does, in order. */
export type FakeClaudeStep =
  /** Write one stdout line (the object serialized, then a newline). */
  | { send: Record<string, unknown> }
  /** Write text to stdout as is (add "\n" yourself; a step may end in the middle of a line). */
  | { raw: string }
  /** Write text to stderr. */
  | { stderr: string }
  /** Pause; an interrupt or `end_session` cuts it short. */
  | { delayMs: number }
  /** Exit (stdout closes first). */
  | { exit: FakeClaudeExit }
  /** Close stdout but keep running. */
  | { closeStdout: true }
  /** Stop: answer nothing more, run no further step, ignore stdin (only a kill ends the fake). */
  | { hang: true }
  /** Wait until the client answered the control request this fake sent with this `request_id`. */
  | { awaitControlResponse: string }
  /** Wait until the client sent a user message with a `uuid` into the running turn (a steer). */
  | { awaitSteer: true }
  /**
   * Fold every steer received so far into the running turn, as Claude Code does at its next tool result: the
   * echoed user line (`isReplay`) and `command_lifecycle` `started`. A steer the turn never takes in runs as the
   * next turn (`nextTurn`) after the `result`, `started` only then.
   */
  | { takeSteers: true }
  /**
   * Write the `tool_result` of an MCP tool call as Claude does: the content and `isError` of the client's
   * `mcp_response` to the `mcp_message` this fake sent with `requestId` (await it first).
   */
  | { mcpToolResult: { requestId: string; toolUseId: string } };

/** How the fake answers one control request from the client. */
export type FakeControlReply =
  /** `control_response` success with this `response` body. */
  | { response: unknown; delayMs?: number }
  /** `control_response` error with this text. */
  | { error: string; delayMs?: number }
  /** No answer at all. */
  | { noReply: true };

/** What a fake Claude Code does: its version, the options it refuses, and the steps of each turn (see {@link FakeClaudeStep}). */
export interface FakeClaudeScript {
  /** What `--version` prints before ` (Claude Code)`. Default `2.1.332`. */
  version?: string | undefined;
  /**
   * Executable fake only: options it refuses as an old release does (`error: unknown option '--effort'` on
   * stderr, exit 1, nothing on stdout), e.g. `["--effort"]`.
   */
  unknownOptions?: string[] | undefined;
  /** Steps at start, before stdin is read (e.g. a refusal: a `stderr` step, then `exit` 1). */
  startup?: FakeClaudeStep[] | undefined;
  /** Steps after the first user message. Default: `claudeSteps.textTurn("ok")`. */
  turn?: FakeClaudeStep[] | undefined;
  /** Steps after each later user message (another turn in the same child, or a steer). Default: none. */
  nextTurn?: FakeClaudeStep[] | undefined;
  /**
   * Answers to control requests by subtype; these win over the defaults: `interrupt` → success
   * `{still_queued:[]}`, `end_session` → success, then exit 0; `initialize` → success `{commands:[], …}`; any other → error "Unsupported control request
   * subtype: …", as Claude Code 2.1.332 answers.
   */
  controlReplies?: Record<string, FakeControlReply> | undefined;
  /**
   * Steps after an `interrupt` was answered while a turn ran (the turn's remaining steps are dropped). Default:
   * `claudeSteps.interrupted()`. An interrupt while idle is answered and nothing else happens.
   */
  onInterrupt?: FakeClaudeStep[] | undefined;
  /**
   * On stdin EOF: `exit` (default) ends the fake once the running turn's steps are done, with code 1 when the
   * last `result` it wrote was an error and 0 otherwise, as Claude Code does; `ignore` keeps it running.
   */
  onStdinEnd?: "exit" | "ignore" | undefined;
  /** Ignore SIGTERM in the executable fake (to exercise the SIGKILL path). */
  ignoreSigterm?: boolean | undefined;
  /**
   * Act as a release whose JSON Schema validator refused `--json-schema` (2.0.77, 2.1.112 drop such a schema): the
   * `system/init` lists no `StructuredOutput`. Default: a launch with `--json-schema` adds `StructuredOutput` to
   * the tools of the init lines it writes, as Claude Code does.
   */
  refuseSchema?: boolean | undefined;
}
