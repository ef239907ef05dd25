import { createColors } from "../../colors.js";
import { printableText } from "../../printable-text.js";
import { CAPABILITY_RANGES } from "../versions/capabilities.js";
import type { ProjectTrustReport } from "./project-trust-check.js";
import { describeTrust } from "./project-trust.js";
import { CODEX_UPGRADE_COMMAND } from "../versions/supported-version.js";

const LAYER = "the repository's .codex/ config (MCP servers, hooks, instructions, model)";

/**
 * The "Project trust" section of `rennet codex doctor`; the paths in it (a repository's directory and file names)
 * printed escaped. Pure.
 */
export function formatProjectTrustReport(report: ProjectTrustReport, options: { color: boolean }): string {
  const c = createColors(options.color);
  const version = `codex ${report.codexVersion ?? "(unknown version)"}`;
  const level = report.trust.level === "trusted" ? c.yellow("trusted") : c.green("untrusted");
  const lines = [
    `${c.bold("Project trust:")} ${level}  ${safe(report.cwd)}`,
    `  why     ${safe(describeTrust(report.trust))}`,
  ];
  switch (report.projectLayer) {
    case "not-read":
      lines.push(`  layer   ${version} reads no project .codex/ config`);
      break;
    case "kept-out":
      lines.push(`  layer   ${LAYER} is not loaded`);
      lines.push("  opt in  --trust-project (trustProject: true) trusts it for one call; nothing is written");
      break;
    case "refused":
      lines.push(
        `  layer   ${c.red("refused")}: ${version} ${refusedWhat(report.refusedFiles)} whatever its trust, ` +
          "so a turn here fails with UNTRUSTED_PROJECT_CONFIG",
      );
      for (const file of report.refusedFiles) lines.push(`          found ${safe(file)}`);
      lines.push(
        `  fix     upgrade Codex (${CODEX_UPGRADE_COMMAND}), or pass --trust-project if you trust these files`,
      );
      break;
    case "loaded":
      lines.push(`  layer   ${LAYER} is loaded`);
      if (!report.trustedLayerRestricted) {
        lines.push(
          `  note    ${c.yellow("on this codex a trusted repository's config can also choose your model provider")}` +
            ` (where your requests go) and run commands through notify and hooks; codex ` +
            `${CAPABILITY_RANGES.projectLayerRestricted.from ?? ""} and newer ignore those keys`,
        );
      }
      break;
  }
  if (report.trust.level === "untrusted" && report.projectLayer !== "refused" && !report.agentsMdNeedsTrust) {
    lines.push(
      `  note    ${version} still sends the repository's AGENTS.md to the model (codex ` +
        `${CAPABILITY_RANGES.agentsMdNeedsTrust.from ?? ""} and newer only for a trusted project)`,
    );
  }
  return `${lines.join("\n")}\n`;
}

/** A path made printable on one line (controls, bidi and zero-width characters escaped), never cut. */
function safe(text: string): string {
  return printableText(text, Number.POSITIVE_INFINITY);
}

/** What the refused files are to this codex: a config it loads, rules it applies to a turn with approvals. */
function refusedWhat(files: readonly string[]): string {
  const rules = files.some((file) => !file.endsWith("config.toml"));
  const config = files.some((file) => file.endsWith("config.toml"));
  const parts = [
    ...(config ? ["loads a repository's .codex/config.toml"] : []),
    ...(rules ? ["applies a repository's .codex/rules to a turn with approvals"] : []),
  ];
  return parts.join(" and ");
}
