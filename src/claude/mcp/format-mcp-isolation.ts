import { createColors } from "../../colors.js";
import { printableText } from "../../printable-text.js";
import type { ClaudeMcpIsolationReport, ClaudeMcpPolicyRun } from "./mcp-isolation.js";

const POLICY_TEXT: Record<ClaudeMcpPolicyRun["policy"], string> = {
  empty: "empty policy (--mcp-none, the default)",
  loopback: "loopback policy (--mcp-server)",
};

/**
 * The report as text: what was checked, then per policy the servers Claude Code said it runs (name, scope,
 * status) and what breaks isolation, then the verdict. Names and messages from Claude are printed escaped. Pure.
 */
export function formatClaudeMcpIsolation(
  report: ClaudeMcpIsolationReport,
  options: { color: boolean },
): string {
  const c = createColors(options.color);
  const lines = [
    `Claude Code MCP isolation · ${printableText(report.claude)}${report.version ? ` (${printableText(report.version, 80)})` : ""}`,
    `  in ${printableText(report.cwd)}, repository settings ${report.trustProject ? "trusted (--trust-project)" : "untrusted"}; no model turn`,
    "",
  ];
  for (const run of report.runs) {
    const held = run.error === null && run.problems.length === 0;
    const mark =
      run.error !== null ? c.yellow("? not checked") : held ? c.green("✓ holds") : c.red("✗ broken");
    lines.push(`${POLICY_TEXT[run.policy]}: ${mark} (${run.elapsedMs} ms)`);
    if (run.error !== null) lines.push(`  ${c.yellow(printableText(run.error.message, 400))}`);
    else if (run.servers.length === 0) lines.push("  Claude Code runs no MCP server");
    for (const server of run.servers) {
      const scope = server.scope === null ? "" : ` · ${printableText(server.scope)}`;
      const error = server.error === null ? "" : ` · ${printableText(server.error)}`;
      lines.push(`  ${printableText(server.name)}${scope} · ${printableText(server.status, 80)}${error}`);
    }
    if (run.policy === "loopback" && run.error === null)
      lines.push(`  the loopback MCP server saw ${run.probeSessions} MCP session(s)`);
    for (const problem of run.problems) lines.push(`  ${c.red("✗")} ${printableText(problem, 400)}`);
  }
  lines.push("");
  lines.push(
    report.verdict === "ok"
      ? c.green("MCP isolation holds: only the requested servers ran, and the loopback one connected")
      : report.verdict === "failed"
        ? c.red("MCP isolation is broken: see the ✗ lines above")
        : c.yellow("MCP isolation could not be checked: see the messages above"),
  );
  return `${lines.join("\n")}\n`;
}
