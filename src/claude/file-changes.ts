/**
 * The file changes of Claude Code's editing tools, read from Claude's own view of each result
 * (`tool_use_result`): `Edit`/`MultiEdit` give `{filePath, structuredPatch:[hunks], originalFile}`, `Write`
 * gives `{type:"create"|"update", filePath, content, structuredPatch}`. Each change becomes a `FileChange` whose
 * `diff` is a unified diff (hunks only, no file header lines). Pure.
 */
import type { FileChange } from "../harness/events.js";
import { isRecord } from "../json-record.js";
import { unifiedDiffOfNewFile } from "../unified-diff.js";

type Json = Record<string, unknown>;

function str(value: unknown): string | null {
  return typeof value === "string" ? value : null;
}

function num(value: unknown): number | null {
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : null;
}

/** Claude's `structuredPatch` hunks as a unified diff; null when there are none it can read. */
export function unifiedDiffOfHunks(hunks: unknown): string | null {
  if (!Array.isArray(hunks)) return null;
  const parts = hunks.flatMap((hunk) => {
    if (!isRecord(hunk) || !Array.isArray(hunk.lines)) return [];
    const [oldStart, oldLines, newStart, newLines] = [
      hunk.oldStart,
      hunk.oldLines,
      hunk.newStart,
      hunk.newLines,
    ].map(num);
    if (oldStart == null || oldLines == null || newStart == null || newLines == null) return [];
    const lines = hunk.lines.filter((line): line is string => typeof line === "string");
    return [
      `@@ -${oldStart},${oldLines} +${newStart},${newLines} @@\n${lines.map((l) => `${l}\n`).join("")}`,
    ];
  });
  return parts.length > 0 ? parts.join("") : null;
}

/**
 * The changes one successful editing tool call made. `input` is the call's input, `toolUseResult` Claude's view
 * of its result; a path missing from both gives no change.
 */
export function fileChangesOf(toolName: string, input: unknown, toolUseResult: unknown): FileChange[] {
  const view: Json = isRecord(toolUseResult) ? toolUseResult : {};
  const given: Json = isRecord(input) ? input : {};
  if (toolName === "NotebookEdit") {
    const path = str(view.notebook_path) ?? str(given.notebook_path);
    return path === null ? [] : [{ path, kind: "update", diff: null }];
  }
  const path = str(view.filePath) ?? str(given.file_path);
  if (path === null) return [];
  if (toolName === "Write" && view.type === "create") {
    const content = str(view.content) ?? str(given.content);
    return [{ path, kind: "add", diff: content === null ? null : unifiedDiffOfNewFile(content) }];
  }
  return [{ path, kind: "update", diff: unifiedDiffOfHunks(view.structuredPatch) }];
}
