/**
 * Names of Codex's own model tools. Codex 0.100 and newer offer the model an app tool (a dynamic tool) beside its
 * own, and one named like a tool Codex offers in that session is silently left out: the model sees Codex's and a
 * call of that name runs Codex's, never the app's handler (measured on 0.171: `exec_command`, `write_stdin`,
 * `view_image`). Which of them Codex offers depends on its release, model and config, so every one is refused.
 */
import { InvalidToolError } from "../../tools/app-tool.js";
import type { ToolSet } from "../../tools/tool-set.js";

const CODEX_TOOL_NAMES: ReadonlySet<string> = new Set([
  "apply_patch",
  "close_agent",
  "create_goal",
  "exec_command",
  "get_goal",
  "list_mcp_resource_templates",
  "list_mcp_resources",
  "local_shell",
  "read_mcp_resource",
  "request_permissions",
  "request_user_input",
  "resume_agent",
  "send_input",
  "shell",
  "shell_command",
  "spawn_agent",
  "tool_search",
  "update_goal",
  "update_plan",
  "view_image",
  "wait_agent",
  "web_search",
  "write_stdin",
]);

/**
 * Throws `InvalidToolError` (`TOOL_INVALID`) for an app tool named like one of Codex's own tools, naming it and
 * the rename. Pure.
 */
export function checkCodexToolNames(tools: ToolSet | null): void {
  for (const name of tools?.keys() ?? [])
    if (CODEX_TOOL_NAMES.has(name))
      throw new InvalidToolError(
        `the app tool "${name}" is named like one of Codex's own tools: Codex would offer the model its own ` +
          `${name} and never call yours; rename it (e.g. "app_${name}")`,
      );
}
