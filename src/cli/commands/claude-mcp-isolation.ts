import { loadModule } from "../../load-module.js";
import { CLAUDE_WORDS } from "../turn-option-specs.js";
import type { RawClaudeMcpIsolationOptions } from "./claude-mcp-isolation-action.js";
import type * as McpIsolationAction from "./claude-mcp-isolation-action.js";
import { mcpIsolationCommand, trustProjectOption } from "./command-kinds.js";

const PROVES_HELP = [
  "What it proves:",
  "  With your installed Claude Code and your real configuration (~/.claude.json, your settings, and the",
  "  .mcp.json and .claude/ settings of the repository in --cwd), and without any model turn, it:",
  "  1. starts claude with a turn's arguments under the empty policy (--strict-mcp-config, no server) and asks",
  "     it over stdin which MCP servers it runs (the `mcp_status` control request; no prompt is ever sent);",
  "  2. does the same under a loopback-only policy with a throw-away MCP server it starts on 127.0.0.1, which",
  "     must be the only server and must connect.",
  "  Claude Code would list a server of your ~/.claude.json or the repository's .mcp.json with its scope; none",
  "  may appear. Every claude process is stopped before it exits; Ctrl-C (SIGINT), SIGTERM or SIGHUP stops it",
  "  early.",
].join("\n");

/** `rennet claude mcp-isolation [--json] [--claude-bin PATH] [--cwd DIR] [--trust-project]`. */
export const claudeMcpIsolationCommand = mcpIsolationCommand<RawClaudeMcpIsolationOptions>(CLAUDE_WORDS, {
  summary: "prove that an explicit MCP policy runs only the requested servers",
  options: [
    "check this claude executable (no discovery, no probe)",
    {
      name: "cwd",
      value: "dir",
      description: "the repository to check in (must exist; default: the current directory)",
    },
    trustProjectOption(
      "let the repository's own settings in, as a --trust-project turn does (its hooks may run)",
    ),
  ],
  noColor: "report",
  description:
    "Check, against your installed Claude Code and your real configuration, that Rennet's MCP policies hold: " +
    "under the empty policy Claude Code runs no MCP server, and under a loopback-only policy only the " +
    "requested one.",
  proves: PROVES_HELP,
  output: [
    "per policy the servers Claude Code reported and what breaks isolation, then the verdict",
    "`verdict`, `runs[].servers[]`, `runs[].problems`",
  ],
  examples: ["rennet claude mcp-isolation --cwd ~/src/pr-123 --json | jq '.runs[] | {policy, problems}'"],
  load: () =>
    loadModule<typeof McpIsolationAction>(
      new URL("./claude-mcp-isolation-action.js", import.meta.url),
      () => import("./claude-mcp-isolation-action.js"),
    ),
});
