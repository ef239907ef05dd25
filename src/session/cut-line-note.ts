import type { ChildGone } from "./child-session.js";

/** Characters of a cut line quoted in a failure message. */
const QUOTED_CHARS = 120;

/**
 * `"; its output ended inside an unfinished line (N bytes: …)"` when the child's output stopped mid-line (it
 * crashed or exited with writes still queued), else `""`. Appended to the exit failure's message. Pure.
 */
export function cutLineNote(gone: ChildGone): string {
  const cut = gone.closed?.type === "eof" ? gone.closed.cut : undefined;
  if (cut === undefined) return "";
  const head = cut.head.length > QUOTED_CHARS ? `${cut.head.slice(0, QUOTED_CHARS)}…` : cut.head;
  return `; its output ended inside an unfinished line (${cut.bytes} bytes: ${head})`;
}
