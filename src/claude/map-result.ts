import type { EventBody } from "../harness/events.js";
import type {
  ClaudeControlRequestLine,
  ClaudeControlResponseLine,
  ClaudeResultLine,
  ClaudeSystemLine,
} from "./stream-json-lines.js";

/** What one stdout line meant. */
export interface ClaudeMapResult {
  events: EventBody[];
  /** The turn's `system/init`: the session builds `session.started` from it, ahead of `events`. */
  init?: ClaudeSystemLine;
  /** The `result` that ended the owned turn; `events` already close its open tools and report its usage. */
  result?: ClaudeResultLine;
  /** A request Claude sent to the client: answer it (`controlSuccess`/`controlError`), then report it. */
  controlRequest?: ClaudeControlRequestLine;
  /** Claude's answer to one of the client's control requests (`interrupt`, `end_session`). */
  controlResponse?: ClaudeControlResponseLine;
}
