import { codexCapabilities } from "../../src/codex/versions/capabilities.js";
import type { McpServerObservation } from "../../src/codex/mcp/mcp-isolation-report.js";
import { testCodexVersion } from "./codex-bin.js";

const caps = codexCapabilities(testCodexVersion());

/**
 * What an observation of the codex under test shows for a requested server that connected: its
 * `runtimeStatus` where codex has one (`mcpRuntimeStatus`), else its last startup report, `ready` (0.117–0.149
 * through `mcpServer/startupStatus/updated`, up to 0.114 through the legacy startup events).
 */
export const CONNECTED_OBSERVATION: Partial<McpServerObservation> = caps.mcpRuntimeStatus
  ? { runtimeStatus: "connected" }
  : { runtimeStatus: null, startup: "ready" };

/** The same, as the isolation table prints it in the server's cell. */
export const CONNECTED_CELL = caps.mcpRuntimeStatus ? "connected" : "startup ready";
