import { DEFAULT_MAX_NESTING_DEPTH, exceedsNestingDepth } from "./json-nesting.js";
import type { DecodedLine } from "./line-decoder.js";

/** Longest excerpt of an offending line kept in a parse error. */
export const PARSE_EXCERPT_CHARS = 200;

export type ParsedFrame =
  { type: "frame"; frame: Record<string, unknown> } | { type: "invalid"; message: string; line: string };

/** Truncates text for error reports, marking how much was cut. */
export function excerpt(text: string, max: number = PARSE_EXCERPT_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more chars)`;
}

/**
 * Turns one decoded line into a JSON object frame, or says why it is not one: over the size cap, nested deeper
 * than `maxNestingDepth` objects/arrays, not JSON, or not an object. Pure.
 */
export function parseFrame(
  line: DecodedLine,
  maxNestingDepth: number = DEFAULT_MAX_NESTING_DEPTH,
): ParsedFrame {
  if (line.type === "overflow") {
    return {
      type: "invalid",
      message: `line of ${line.bytes} bytes exceeds the size cap`,
      line: excerpt(line.head),
    };
  }
  if (exceedsNestingDepth(line.text, maxNestingDepth)) {
    return {
      type: "invalid",
      message: `frame nested deeper than ${maxNestingDepth} levels`,
      line: excerpt(line.text),
    };
  }
  let value: unknown;
  try {
    value = JSON.parse(line.text);
  } catch (error) {
    return {
      type: "invalid",
      message: `malformed JSON: ${(error as Error).message}`,
      line: excerpt(line.text),
    };
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    const kind = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
    return { type: "invalid", message: `expected a JSON object, got ${kind}`, line: excerpt(line.text) };
  }
  return { type: "frame", frame: value as Record<string, unknown> };
}
