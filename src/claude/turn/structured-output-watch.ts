import { errorMessage } from "../../errors.js";
import type { ParseFailure } from "../../harness/events.js";
import { isRecord } from "../../json-record.js";
import { excerpt } from "../../jsonl/frame-parser.js";
import type { StructuredOutputCheck } from "./claude-turn-options.js";

/** The text Claude Code's reminders share (2.1.332 `[structured-output-enforce] …`, 2.0.77 `Stop hook feedback: …`). */
const REMINDER = /You MUST call the StructuredOutput tool/;

/** How much of Claude Code's rejection a failure quotes. */
const MAX_REJECTION_CHARS = 1_000;

/**
 * Whether a stdout line is Claude Code's synthetic reminder to a model that ended a `--json-schema` turn
 * without calling `StructuredOutput`: a main-agent `user` line with `isSynthetic: true` whose text says so. Pure.
 */
function isStructuredOutputReminder(line: Record<string, unknown>): boolean {
  if (line.type !== "user" || line.isSynthetic !== true) return false;
  if (typeof line.parent_tool_use_id === "string") return false;
  return contentBlocks(line).some((block) => typeof block.text === "string" && REMINDER.test(block.text));
}

/**
 * What the stdout lines of a `--json-schema` turn say of its structured output besides the `result`: Claude
 * Code's reminders, and its rejections of the model's `StructuredOutput` calls (Claude validates the value against
 * the schema and answers a value it refuses with an error tool result).
 */
export class StructuredOutputWatch {
  readonly #calls = new Set<string>();
  #rejection: string | null = null;
  #reminders = 0;

  /** How many reminders Claude Code has sent so far. */
  get reminders(): number {
    return this.#reminders;
  }

  /** Claude Code's words for the last `StructuredOutput` call it refused; null when it refused none. */
  get rejection(): string | null {
    return this.#rejection;
  }

  /** Reads one stdout line; true when it is a reminder ({@link isStructuredOutputReminder}). */
  observe(line: Record<string, unknown>): boolean {
    if (isStructuredOutputReminder(line)) {
      this.#reminders += 1;
      return true;
    }
    if (typeof line.parent_tool_use_id === "string") return false;
    for (const block of contentBlocks(line)) {
      if (line.type === "assistant" && block.type === "tool_use" && block.name === "StructuredOutput") {
        if (typeof block.id === "string") this.#calls.add(block.id);
      } else if (line.type === "user" && block.type === "tool_result" && block.is_error === true) {
        if (typeof block.tool_use_id === "string" && this.#calls.has(block.tool_use_id))
          this.#rejection = textOf(block.content).slice(0, MAX_REJECTION_CHARS);
      }
    }
    return false;
  }
}

/** The content blocks of a line's message (a string content is one text block). */
function contentBlocks(line: Record<string, unknown>): Record<string, unknown>[] {
  const content = isRecord(line.message) ? line.message.content : undefined;
  if (typeof content === "string") return [{ type: "text", text: content }];
  return Array.isArray(content) ? content.filter(isRecord) : [];
}

/** A tool result's text: its string, or its text blocks joined. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter(isRecord)
    .map((block) => (typeof block.text === "string" ? block.text : ""))
    .filter((text) => text !== "")
    .join("\n");
}

/**
 * `check`'s verdict on a completed turn's structured output; a check that throws fails the turn with source
 * `parse` naming the error, so that the turn still gets its terminal.
 */
export function checkedStructuredOutput(
  check: StructuredOutputCheck,
  value: unknown,
): ReturnType<StructuredOutputCheck> {
  try {
    return check(value);
  } catch (error) {
    const cause = errorMessage(error);
    let line: string;
    try {
      line = excerpt(JSON.stringify(value) ?? "undefined");
    } catch {
      line = "";
    }
    const failure: ParseFailure = {
      source: "parse",
      message: `Claude Code's structured output could not be checked against the schema (${cause})`,
      line,
      errors: [cause],
    };
    return { ok: false, failure };
  }
}
