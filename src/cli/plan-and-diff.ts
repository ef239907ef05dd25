import { printableText } from "../printable-text.js";
import type { FileChange, PlanStep } from "../harness/events.js";

const STEP_MARKS = new Map([
  ["completed", "✓"],
  ["inProgress", "▸"],
  ["pending", "○"],
]);

/** One compact line for a plan update: `plan: ✓ read · ▸ fix · ○ test`. Pure. */
export function planLine(steps: readonly PlanStep[]): string {
  if (steps.length === 0) return "plan: (empty)";
  return `plan: ${steps.map((s) => `${STEP_MARKS.get(s.status) ?? "·"} ${printableText(s.step, 200)}`).join(" · ")}`;
}

/**
 * `3 files changed, +12 −4` from a unified diff (files by `diff --git` or `+++` headers; added and removed
 * lines without the headers); null when the diff changes nothing. Pure.
 */
export function diffSummary(diff: string): string | null {
  const files = new Set<string>();
  let added = 0;
  let removed = 0;
  for (const line of diff.split("\n")) {
    if (line.startsWith("diff --git ")) files.add(line.slice("diff --git ".length));
    else if (line.startsWith("+++ ") || line.startsWith("--- ")) {
      const file = line.slice(4).replace(/^[ab]\//, "");
      if (file !== "/dev/null" && line.startsWith("+++ ") && !files.size) files.add(file);
    } else if (line.startsWith("+")) added += 1;
    else if (line.startsWith("-")) removed += 1;
  }
  if (files.size === 0 && added === 0 && removed === 0) return null;
  return changedLine(Math.max(files.size, 1), added, removed);
}

/**
 * The same summary from the turn's `file.changed` changes, for a harness that sends no aggregated diff: files
 * by distinct path, lines from each change's diff. Null when there is none. Pure.
 */
export function fileChangesSummary(changes: readonly FileChange[]): string | null {
  const files = new Set(changes.map((change) => change.path));
  if (files.size === 0) return null;
  let added = 0;
  let removed = 0;
  for (const change of changes) {
    for (const line of (change.diff ?? "").split("\n")) {
      if (line.startsWith("+++ ") || line.startsWith("--- ")) continue;
      if (line.startsWith("+")) added += 1;
      else if (line.startsWith("-")) removed += 1;
    }
  }
  // no change carried a diff: the lines are unknown, not none
  if (changes.every((change) => change.diff === null || change.diff === "")) return changedLine(files.size);
  return changedLine(files.size, added, removed);
}

function changedLine(files: number, added?: number, removed = 0): string {
  const counts = added === undefined ? "" : `, +${added} −${removed}`;
  return `${files} file${files === 1 ? "" : "s"} changed${counts}`;
}
