import { isRecord } from "../../json-record.js";

/** The text Claude Code's reminders share (2.1.332 `[structured-output-enforce] …`, 2.0.77 `Stop hook feedback: …`). */
const REMINDER = /You MUST call the StructuredOutput tool/;

/**
 * Whether a stdout line is Claude Code's synthetic reminder to a model that ended a `--json-schema` turn
 * without calling `StructuredOutput`: a main-agent `user` line with `isSynthetic: true` whose text says so. Pure.
 */
export function isStructuredOutputReminder(line: Record<string, unknown>): boolean {
  if (line.type !== "user" || line.isSynthetic !== true) return false;
  if (typeof line.parent_tool_use_id === "string") return false;
  const message = isRecord(line.message) ? line.message : {};
  const content = message.content;
  if (typeof content === "string") return REMINDER.test(content);
  if (!Array.isArray(content)) return false;
  return content.some(
    (block) => isRecord(block) && typeof block.text === "string" && REMINDER.test(block.text),
  );
}
