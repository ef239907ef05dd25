/**
 * A codex file change as a `FileChange` whose `diff` is a unified diff: codex sends an update's hunks, but an
 * added or deleted file's whole content (`diff` of a v2 `fileChange` item, `content` of a v1 `fileChanges`
 * entry; measured on 0.171), which is made a diff against nothing here. Pure.
 */
import type { FileChange } from "../../harness/events.js";
import { unifiedDiffOfDeletedFile, unifiedDiffOfNewFile } from "../../unified-diff.js";

/** `{path, kind, diff}` of one codex change; `diff` is codex's text for `kind` (null when it sent none). */
export function codexFileChange(path: string, kind: string, diff: string | null): FileChange {
  if (diff === null) return { path, kind, diff };
  if (kind === "add") return { path, kind, diff: unifiedDiffOfNewFile(diff) };
  if (kind === "delete") return { path, kind, diff: unifiedDiffOfDeletedFile(diff) };
  return { path, kind, diff };
}
