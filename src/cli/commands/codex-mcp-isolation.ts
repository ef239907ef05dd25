import { loadModule } from "../../load-module.js";
import { CODEX_WORDS } from "../turn-option-specs.js";
import type { RawMcpIsolationOptions } from "./codex-mcp-isolation-action.js";
import type * as McpIsolationAction from "./codex-mcp-isolation-action.js";
import { mcpIsolationCommand } from "./command-kinds.js";

const PROVES_HELP = [
  "What it proves:",
  "  With your installed Codex and your real configuration (CODEX_HOME, and the .codex/config.toml of the",
  "  repository you run it in), and without any model turn, it:",
  "  1. lists the configured MCP servers (`codex mcp list --json`, repository servers included);",
  "  2. launches `codex app-server` under the empty policy (--mcp-none) and asks it for its effective",
  "     configuration (config/read) and, after thread/start, each server's runtime status",
  "     (mcpServerStatus/list, plus the thread's startup notifications);",
  "  3. does the same under a loopback-only policy (--mcp-server) with a throw-away MCP server it starts on",
  "     127.0.0.1, which must connect.",
  "  It prints one row per server with its state under each policy. Nothing is written to your Codex home:",
  "  threads are ephemeral and repository trust is stated per thread. Every codex process is stopped before",
  "  it exits; Ctrl-C (SIGINT), SIGTERM or SIGHUP stops it early.",
].join("\n");

/** `rennet codex mcp-isolation [--json] [--codex-bin PATH]`: the MCP isolation control. */
export const codexMcpIsolationCommand = mcpIsolationCommand<RawMcpIsolationOptions>(CODEX_WORDS, {
  summary: "prove that an explicit MCP policy enables only the requested servers",
  options: ["check this codex executable (no discovery, no probe; npm's launcher is skipped)"],
  noColor: "table",
  description:
    "Check, against your installed Codex and your real configuration, that Rennet's MCP policies hold: " +
    "under the empty policy no configured MCP server is enabled or started, and under a loopback-only " +
    "policy only the requested server is.",
  proves: PROVES_HELP,
  output: [
    "the table on stdout (configured state, then `verdict config · runtime` per policy)",
    "`ok`, `inventory`, `runs[].servers[]`, errors",
  ],
  examples: [
    "rennet codex mcp-isolation --json | jq '.runs[] | {policy, ok}'",
    "RENNET_CODEX_BIN=/opt/codex/bin/codex npm run real-mcp-isolation",
  ],
  load: () =>
    loadModule<typeof McpIsolationAction>(
      new URL("./codex-mcp-isolation-action.js", import.meta.url),
      () => import("./codex-mcp-isolation-action.js"),
    ),
});
