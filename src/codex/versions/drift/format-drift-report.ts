import { createColors } from "../../../colors.js";
import { printableText } from "../../../printable-text.js";
import type { SchemaDriftReport } from "./schema-drift.js";

/**
 * The drift check as text: a header naming the binary, one row per check (`ok`, `MISSING`, `CHANGED`, or
 * `absent` for an optional one Rennet falls back from), the notifications Rennet will pass through, and a
 * verdict line. Everything that came from the binary (its path, version, schema values, method names, errors) is
 * printed escaped (`printableText`). Pure.
 */
export function formatDriftReport(report: SchemaDriftReport, options: { color: boolean }): string {
  const c = createColors(options.color);
  const lines: string[] = [];
  const version = report.version ? `codex ${printableText(report.version, 80)}` : "codex";
  const where = printableText(report.binary.path ?? report.binary.command, Number.POSITIVE_INFINITY);
  lines.push(`${c.bold("Schema drift:")} ${version} (${where})${report.cached ? c.dim(" · cached") : ""}`);
  if (!report.comparison) {
    lines.push(c.yellow(`  not checked: ${printableText(report.error ?? "no schema", 1_000)}`));
    return `${lines.join("\n")}\n`;
  }
  const { rows, newNotifications, ok } = report.comparison;
  const width = Math.max(...rows.map((row) => row.subject.length));
  for (const row of rows) {
    const mark =
      row.status === "ok"
        ? c.green("ok     ")
        : row.optional
          ? c.dim("absent ")
          : c.red(row.status === "missing" ? "MISSING" : "CHANGED");
    const note = row.detail
      ? `  ${c.dim(printableText(row.detail, 400))}`
      : row.optional && row.status !== "ok"
        ? c.dim("  (optional: Rennet falls back)")
        : "";
    lines.push(`  ${mark}  ${row.subject.padEnd(width)}${note}`.trimEnd());
  }
  lines.push(
    newNotifications.length === 0
      ? c.dim("  no notifications Rennet does not know")
      : `  passed through as unknown: ${newNotifications.map((method) => printableText(method, 200)).join(", ")}`,
  );
  const bad = rows.filter((row) => !row.optional && row.status !== "ok").length;
  lines.push(
    ok
      ? c.green(`  OK: everything Rennet sends or relies on exists (${rows.length} checks).`)
      : c.red(`  DRIFT: ${bad} of ${rows.length} checks missing or changed in this Codex.`),
  );
  return `${lines.join("\n")}\n`;
}
