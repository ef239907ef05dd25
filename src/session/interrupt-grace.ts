/**
 * After a harness's own interrupt (Codex's `turn/interrupt`, Claude Code's `interrupt` control request), how long
 * a session waits for the interrupted turn's end before it kills the tree.
 */
export const DEFAULT_INTERRUPT_GRACE_MS = 2_000;
