import { createColors, type Colors } from "../../colors.js";
import { hasUnprintable, printableText } from "../../printable-text.js";
import { isolationNotChecked, type McpEvidence, type McpIsolationReport } from "./mcp-isolation-report.js";

/**
 * A name as shown in the table: as it is, or JSON-quoted with every character {@link printableText} escapes
 * escaped when it is empty or holds a quote, a backslash or such a character (an invisible one included, so that
 * no name passes for another).
 */
function printable(name: string): string {
  if (name !== "" && !/["\\]/.test(name) && !hasUnprintable(name)) return name;
  return `"${printableText(name.replace(/["\\]/g, "\\$&"), Number.POSITIVE_INFINITY)}"`;
}

/** What codex (or the file system) said, escaped for the terminal. */
const safe = (text: string): string => printableText(text, 1_000);

const EVIDENCE_TEXT: Record<Exclude<McpEvidence, "runtimeStatus">, string> = {
  startupNotifications:
    "mcpServer/startupStatus/updated notifications (this codex lists no runtimeStatus; a server it never started reports nothing)",
  legacyStartupEvents:
    "codex/event/mcp_startup_update and mcp_startup_complete (this codex lists no runtimeStatus; a server it never started reports nothing)",
};

function pad(text: string, width: number): string {
  return text + " ".repeat(Math.max(0, width - [...text].length));
}

type Cell = { text: string; paint: (s: string) => string };

/**
 * The report as a table: one row per server, a column for the configured state and one per policy showing
 * `config · runtime` and the verdict; then one line per run error and a final verdict line. No colour unless
 * `options.color`. Pure.
 */
export function formatIsolationReport(
  report: McpIsolationReport,
  options: { color: boolean } = { color: false },
): string {
  const c = createColors(options.color);
  const lines = [
    ...header(report, c),
    ...serverTable(report, c),
    "",
    ...runNotes(report, c),
    verdictLine(report, c),
  ];
  return `${lines.join("\n")}\n`;
}

/** Which codex, where, and the inventory's error if it could not be read. */
function header(report: McpIsolationReport, c: Colors): string[] {
  const lines = [c.bold("Codex MCP isolation check"), `  codex: ${safe(report.codex)}`];
  if (report.userAgent) lines.push(`  agent: ${safe(report.userAgent)}`);
  if (report.codexHome) lines.push(`  home:  ${safe(report.codexHome)}`);
  lines.push(`  cwd:   ${safe(report.cwd)}`, "");
  const error = report.inventoryError;
  if (error)
    lines.push(c.red(`Could not read the configured MCP servers (${error.code}): ${safe(error.message)}`));
  return lines;
}

/** Every server configured or observed, in that order, one row each, the columns padded to one width. */
function serverTable(report: McpIsolationReport, c: Colors): string[] {
  const names = [
    ...new Set([
      ...report.inventory.map((entry) => entry.name),
      ...report.runs.flatMap((run) => run.servers.map((server) => server.name)),
    ]),
  ];
  const titles = ["server", "configured", ...report.runs.map((run) => `${run.policy} policy`)];
  const rows = names.map((name) => serverRow(report, name, c));
  const widths = titles.map((title, column) =>
    Math.max([...title].length, ...rows.map((row) => [...(row[column]?.text ?? "")].length)),
  );
  const lines = [titles.map((title, column) => c.bold(pad(title, widths[column] ?? 0))).join("  ")];
  for (const row of rows) {
    lines.push(row.map((cell, column) => cell.paint(pad(cell.text, widths[column] ?? 0))).join("  "));
  }
  if (names.length === 0) lines.push(c.dim("(no MCP servers configured or observed)"));
  return lines;
}

/** One server: its name, its configured state, and per policy its verdict with `config · runtime`. */
function serverRow(report: McpIsolationReport, name: string, c: Colors): Cell[] {
  const plain = (s: string): string => s;
  const entry = report.inventory.find((item) => item.name === name);
  const configured: Cell = entry
    ? {
        text: `${entry.transport === "stdio" ? "stdio" : "http"}, ${entry.enabled ? "on" : "off"}`,
        paint: plain,
      }
    : { text: "-", paint: c.dim };
  const cells = report.runs.map((run): Cell => {
    const server = run.servers.find((item) => item.name === name);
    if (!server) return { text: "-", paint: c.dim };
    const config = server.configEnabled === null ? "absent" : server.configEnabled ? "on" : "off";
    const runtime =
      server.runtimeStatus ??
      (server.startup
        ? `startup ${server.startup}`
        : server.tools !== null && server.tools > 0
          ? `${server.tools} tools`
          : "-");
    const mark = server.verdict === "ok" ? "ok" : server.verdict.toUpperCase();
    const text = `${mark}  ${config} · ${runtime}${server.requested ? " (requested)" : ""}`;
    return { text, paint: server.verdict === "ok" ? c.green : c.red };
  });
  return [{ text: printable(name), paint: plain }, configured, ...cells];
}

/** Per run: what its verdicts rest on, why it cannot be proven, or why it could not be checked. */
function runNotes(report: McpIsolationReport, c: Colors): string[] {
  const lines: string[] = [];
  for (const run of report.runs) {
    if (run.evidence && run.evidence !== "runtimeStatus") {
      lines.push(c.dim(`${run.policy} policy judged from ${EVIDENCE_TEXT[run.evidence]}`));
    }
    if (run.unproven) lines.push(c.yellow(`${run.policy} policy cannot be proven: ${safe(run.unproven)}`));
    if (run.error)
      lines.push(
        c.red(`${run.policy} policy could not be checked (${run.error.code}): ${safe(run.error.message)}`),
      );
    else if (!run.overrideLayerSeen)
      lines.push(c.red(`${run.policy} policy: config/read showed no sessionFlags mcp_servers layer`));
    for (const feature of run.features.filter((f) => f.enabled === true))
      lines.push(c.red(`${run.policy} policy: feature ${safe(feature.name)} is on (it starts MCP servers)`));
  }
  return lines;
}

function verdictLine(report: McpIsolationReport, c: Colors): string {
  if (report.verdict === "ok")
    return c.green("OK: under each policy only the requested MCP servers were enabled, and they connected.");
  if (isolationNotChecked(report))
    return c.yellow("NOT CHECKED: a step of the check could not run (see above); nothing was judged.");
  if (report.verdict === "unproven")
    return c.yellow(
      "UNPROVEN: nothing leaked or failed, but this Codex version cannot prove every point (see above).",
    );
  return c.red(
    "FAILED: a server outside the policy was enabled or started, or a requested one did not connect.",
  );
}
