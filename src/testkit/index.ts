/**
 * `rennet-adapters/testkit`: test doubles for your own tests. For Codex: a scriptable fake app-server (in memory
 * and as an executable), a loopback stand-in for the Responses API that lets the real codex run offline, a
 * throw-away CODEX_HOME. For Claude Code: a scriptable fake `claude` speaking stream-json (in memory and as an
 * executable), a loopback stand-in for the Anthropic Messages API, a throw-away HOME. And a loopback MCP server.
 */
export { InMemoryAppServer, type FakeLaunch } from "./in-memory-app-server.js";
export { FakePeer, type FakePeerHost } from "./fake-peer.js";
export {
  fakeSteps,
  FAKE_MODEL,
  FAKE_THREAD_ID,
  FAKE_TURN_ID,
  type FakeChunk,
  type FakeChunkPart,
  type FakeDeparture,
  type FakeExit,
  type FakeReply,
  type FakeRateLimitWindow,
  type FakeSend,
  type FakeScript,
  type FakeStep,
} from "./fake-script.js";
export {
  startLoopbackModelServer,
  LoopbackModelServerClosedError,
  type LoopbackModelServer,
  type LoopbackModelServerOptions,
} from "./loopback-model-server.js";
export type { ModelScenario, RecordedRequest, ResponsePlan } from "./model-response-plan.js";
export * as modelScenarios from "./scenarios.js";
export * as responseEvents from "./responses-stream-events.js";
export {
  createCodexHome,
  codexHomeConfig,
  renderCodexHomeConfig,
  LOOPBACK_PROVIDER_ID,
  type CodexHome,
  type CodexHomeOptions,
} from "./codex-home.js";
export { fallbackModelCatalog, loopbackModelCatalog } from "./model-catalog.js";
export {
  startLoopbackMcpServer,
  ECHO_TOOL,
  type LoopbackMcpServer,
  type LoopbackMcpServerOptions,
  type LoopbackMcpTool,
  type LoopbackMcpToolCall,
} from "../mcp/loopback-mcp-server.js";

export {
  startLoopbackMessagesServer,
  LoopbackMessagesServerClosedError,
  type LoopbackMessagesServer,
  type LoopbackMessagesServerOptions,
} from "./loopback-messages-server.js";
export type { MessagesPlan, MessagesScenario } from "./messages-response-plan.js";
export * as messagesScenarios from "./messages-scenarios.js";
export * as messagesEvents from "./messages-stream-events.js";
export { createClaudeHome, type ClaudeHome, type ClaudeHomeOptions } from "./claude-home.js";
export { InMemoryClaude, type FakeClaudeLaunch } from "./in-memory-claude.js";
export { FakeClaudePeer, type FakeClaudePeerHost } from "./fake-claude-peer.js";
export type {
  FakeClaudeExit,
  FakeClaudeScript,
  FakeClaudeStep,
  FakeControlReply,
} from "./fake-claude-script.js";
export {
  claudeSteps,
  FAKE_CLAUDE_MODEL,
  FAKE_CLAUDE_SESSION_ID,
  FAKE_CLAUDE_TURN_ID,
  type FakeMessageOptions,
} from "./fake-claude-steps.js";

import { fileURLToPath } from "node:url";

/** Path of the executable fake app-server; launch it as `node <path> app-server` with `RENNET_FAKE_SCRIPT_JSON`. */
export const FAKE_APP_SERVER_BIN: string = fileURLToPath(
  new URL("./fake-app-server-bin.js", import.meta.url),
);

/**
 * Path of the executable fake `claude`; launch it as `node <path> [claude's options…]` with
 * `RENNET_FAKE_CLAUDE_SCRIPT_JSON` (or `RENNET_FAKE_CLAUDE_SCRIPT`, a file).
 */
export const FAKE_CLAUDE_BIN: string = fileURLToPath(new URL("./fake-claude-bin.js", import.meta.url));
