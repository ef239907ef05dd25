import { createColors } from "../../colors.js";
import { printableText } from "../../printable-text.js";
import type { ClaudeProjectFile, ClaudeProjectTrustReport } from "./project-settings.js";
import type { ClaudeRepositoryConfig } from "./repository-config.js";

type Colors = ReturnType<typeof createColors>;

/**
 * Renders a {@link ClaudeProjectTrustReport} for `rennet claude doctor`: the decision, why, the arguments that
 * carry it, each repository file that is there with what a turn does with it, and what the settings files and
 * `.mcp.json` ask to run (hooks, MCP servers, `enableAllProjectMcpServers`, env names, `apiKeyHelper`). Pure.
 */
export function formatClaudeProjectTrust(
  report: ClaudeProjectTrustReport,
  options: { color: boolean },
): string {
  const c = createColors(options.color);
  const verdict = report.trusted ? c.yellow("trusted") : c.green("untrusted");
  const lines = [
    `${c.bold("Project trust:")} ${verdict}  ${printableText(report.cwd, Number.POSITIVE_INFINITY)}`,
    `  reason  ${report.reason}`,
    `  a turn  ${report.args.join(" ")}`,
  ];
  if (report.files.length === 0) {
    lines.push(c.dim("  No Claude Code settings, MCP or instruction files here."));
  } else {
    lines.push("  Repository files here (only the settings files and .mcp.json are read):");
    const width = Math.max(...report.files.map((file) => fileName(file).length));
    for (const file of report.files) {
      const note = file.kind === "symlink" ? " (a symlink)" : "";
      lines.push(`    ${fileName(file).padEnd(width)}  ${file.holds}${note}: ${file.effect}`);
      if (file.problem !== undefined) lines.push(`      ${c.yellow("unread")}  ${file.problem}`);
      if (file.config !== undefined) lines.push(...configLines(file.config, report.trusted, c));
    }
  }
  if (!report.trusted) {
    lines.push(
      `  ${c.green("Rennet loads none of the repository's settings, hooks or MCP servers")}: a turn here ` +
        "runs with the arguments above.",
      c.dim("  Trust it for one call with trustProject: true (--trust-project) if you trust these files."),
    );
  }
  return `${lines.join("\n")}\n`;
}

function fileName(file: ClaudeProjectFile): string {
  return `${file.relative}${file.kind === "directory" ? "/" : ""}`;
}

/** The lines under one read file: what it asks to run, marked as held back when the turn is untrusted. */
function configLines(config: ClaudeRepositoryConfig, trusted: boolean, c: Colors): string[] {
  const lines: string[] = [];
  const row = (term: string, text: string): void => void lines.push(`      ${term.padEnd(6)}  ${text}`);
  for (const hook of config.hooks)
    row("hook", `${hook.event}${hook.matcher === null ? "" : ` [${hook.matcher}]`}: ${hook.runs}`);
  for (const server of config.mcpServers)
    row("server", `${server.name} (${server.transport}): ${server.target}`);
  if (config.enableAllProjectMcpServers !== null)
    row(
      "mcp",
      `enableAllProjectMcpServers: ${config.enableAllProjectMcpServers}` +
        (config.enableAllProjectMcpServers ? " (starts every .mcp.json server unasked)" : ""),
    );
  if (config.enabledMcpjsonServers.length > 0)
    row("mcp", `enabledMcpjsonServers: ${config.enabledMcpjsonServers.join(", ")}`);
  if (config.env.length > 0) row("env", config.env.join(", "));
  if (config.apiKeyHelper !== null) row("helper", `apiKeyHelper: ${config.apiKeyHelper}`);
  if (config.omitted > 0) row("more", `${config.omitted} more entries (or not of the documented shape)`);
  if (lines.length === 0) return [c.dim("      (nothing to run or start)")];
  return trusted ? lines : lines.map((line) => c.dim(line));
}
