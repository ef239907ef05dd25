import type { EventBase, SessionStartedEvent, WarningEvent } from "../../harness/events.js";
import { asRecord } from "../../json-record.js";
import type { JsonRpcResponseError } from "../../jsonl/errors.js";
import { excerpt } from "../../jsonl/frame-parser.js";
import type { JsonRpcConnection } from "../../jsonl/json-rpc-connection.js";
import { codexCapabilities } from "../versions/capabilities.js";
import type { InitializeAnswer } from "../app-server/handshake.js";
import { trustOverride, type TrustDecision } from "../trust/project-trust.js";
import { lookUpProjectTrust } from "../trust/project-trust-lookup.js";
import { assertProjectConfigContained, codexHomeOf } from "../trust/untrusted-project-guard.js";
import { assertSupportedVersion } from "../versions/supported-version.js";
import { trustSafeThreadSandbox } from "../trust/trust-safe-sandbox.js";
import { assertCallSupported } from "../versions/unsupported-feature.js";
import { mcpCallsUnaskedWarning } from "../versions/unasked-mcp-calls.js";
import {
  buildThreadResumeParams,
  buildThreadStartParams,
  buildTurnStartParams,
  type TurnRequestOptions,
} from "../protocol/protocol-requests.js";
import type { TurnOwnership } from "./turn-ownership.js";
import type { TurnTimeouts } from "./turn-timeouts.js";

/** What the start sequence needs from its session. */
export interface TurnStartContext {
  conn: JsonRpcConnection;
  /** What `initialize` answered. */
  init: InitializeAnswer;
  /** The cwd as Codex sees it. */
  cwd: string;
  /** The cwd on this machine, and the environment codex runs with (for the untrusted-project check). */
  local: { cwd: string; env: NodeJS.ProcessEnv };
  request: TurnRequestOptions;
  /** The MCP policy as thread config, applied where launch overrides do not reach a thread's MCP servers. */
  mcpThreadConfig: Record<string, unknown> | null;
  /** Whether the MCP policy lets any MCP server start (the inherited ones, or an explicit policy's). */
  mcpServersMayStart: boolean;
  /**
   * Where codex without dynamic tools reaches the app tools: their loopback MCP server's `mcp_servers` entry
   * (`{name, entry}`), added to the thread config with the policy's whole table. Null: none.
   */
  appToolsMcp?: { name: string; entry: Record<string, unknown> } | null;
  timeouts: TurnTimeouts;
  ownership: TurnOwnership;
  /** Wraps each step; rejects once the session has ended, so the sequence stops there. */
  until<T>(step: Promise<T>): Promise<T>;
  /** An error answer, called while it is routed (before any frame behind it is mapped). */
  onRefused(error: JsonRpcResponseError): void;
  /** The thread exists: the session announces itself. */
  onSessionStarted(started: Omit<SessionStartedEvent, keyof EventBase>): void;
  /** A warning about the session, right after it announced itself. */
  onWarning(warning: Omit<WarningEvent, keyof EventBase>): void;
  /** The cwd's trust was decided (before `thread/start`). */
  onTrust(trust: TrustDecision): void;
  /** The session ended while a step's answer was on its way (an await resumes a tick later). */
  ended(): boolean;
  /** `thread/start` named no thread: the session fails with this excerpt of the result. */
  onNoThread(resultExcerpt: string): void;
}

/**
 * After `initialize`/`initialized` (done by the app-server session): the version checks, the trust lookup, `thread/start` and `turn/start`. Ids are adopted into the
 * ownership while their responses are routed, so frames in the same chunk behind a response are judged against
 * the right thread and turn. What differs per codex version is decided from the version `initialize` reports
 * (see `capabilities.ts`): a codex older than the oldest supported is refused before any thread work
 * (`UnsupportedCodexVersionError`), and so is a call asking what that version would silently ignore
 * (`UnsupportedCodexFeatureError`: an output schema before 0.80), and so is an untrusted turn on a codex that
 * would load the repository's own config anyway (`UntrustedProjectConfigError`, 0.80–0.87; with approvals also
 * where it would apply the repository's own rules, 0.80–0.121); the trust decision
 * is stated for the cwd and its ancestors, and the thread sandbox and the MCP thread config follow the
 * capabilities.
 * Rejects with the connection's errors (refused, stalled, closed) or the `until` one.
 */
export async function startTurn(ctx: TurnStartContext): Promise<void> {
  const { conn, cwd, timeouts, ownership, init } = ctx;
  const onError = ctx.onRefused;
  assertSupportedVersion(init.codexVersion);
  const capabilities = codexCapabilities(init.codexVersion);
  assertCallSupported(ctx.request, capabilities);
  const { decision: trust, directories } = await ctx.until(
    lookUpProjectTrust(conn, cwd, {
      trustProject: ctx.request.trustProject,
      timeoutMs: timeouts.threadStartMs,
    }),
  );
  ctx.onTrust(trust);
  await ctx.until(
    assertProjectConfigContained(trust, capabilities, {
      cwd: ctx.local.cwd,
      codexHome: codexHomeOf(ctx.local.env),
      asking: ctx.request.approvalMode !== undefined,
    }),
  );
  const appMcp = ctx.appToolsMcp ?? null;
  const policyConfig =
    capabilities.launchOverridesReachThreads && appMcp === null ? {} : (ctx.mcpThreadConfig ?? {});
  const threadConfig = {
    ...trustOverride(directories, trust),
    ...policyConfig,
    ...(appMcp === null
      ? {}
      : { mcp_servers: { ...asRecord(policyConfig.mcp_servers), [appMcp.name]: appMcp.entry } }),
  };
  const threadSandbox = trustSafeThreadSandbox(trust, capabilities, ctx.request.approvalMode !== undefined);
  const request = { ...ctx.request, cwd, threadConfig, threadSandbox };
  const resume = ctx.request.resume;
  const [method, params] =
    resume === undefined
      ? (["thread/start", buildThreadStartParams(request)] as const)
      : (["thread/resume", buildThreadResumeParams(resume, request)] as const);
  const thread = await ctx.until(
    conn.request(method, params, {
      timeoutMs: timeouts.threadStartMs,
      onError,
      onResult: (result) => ownership.adoptThreadResult(result, ctx.request.model ?? null),
    }),
  );
  const threadId = ownership.threadId;
  if (ctx.ended()) return;
  if (threadId === null) {
    ctx.onNoThread(excerpt(JSON.stringify(thread) ?? String(thread)));
    return;
  }
  const threadCwd = asRecord(thread).cwd;
  ctx.onSessionStarted({
    type: "session.started",
    threadId,
    model: ownership.model,
    cwd: typeof threadCwd === "string" ? threadCwd : cwd,
    harnessVersion: init.codexVersion,
    pid: null,
    trust,
  });
  if (ctx.request.approvalMode !== undefined && !capabilities.mcpToolCallApprovals && ctx.mcpServersMayStart)
    ctx.onWarning(mcpCallsUnaskedWarning(init.codexVersion));
  await ctx.until(
    conn.request("turn/start", buildTurnStartParams(threadId, { ...ctx.request, cwd }), {
      timeoutMs: timeouts.turnStartMs,
      onError,
      onResult: (result) => ownership.adoptTurnResult(result),
    }),
  );
}
