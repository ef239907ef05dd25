import path from "node:path";
import type { SteerInput } from "../harness/approvals.js";
import { SteerError } from "../harness/errors.js";
import { errorMessage } from "../errors.js";
import { isRecord } from "../json-record.js";
import { resolveImageFiles } from "./image-content.js";

/**
 * The inputs of `session.steer(input)`: text, or a list of text and local image inputs (relative image paths
 * against `cwd`, each a readable PNG, JPEG, GIF or WebP file by its content, as a call's `images` are). Throws {@link SteerError} `STEER_INPUT_INVALID`
 * for empty text, an image that is not a readable image file, or an input of no known type.
 */
export function steerInputs(input: unknown, cwd: string): Record<string, unknown>[] {
  const list: unknown[] =
    typeof input === "string" ? [{ type: "text", text: input }] : Array.isArray(input) ? input : [];
  if (list.length === 0) throw invalid("give the guidance as text or a non-empty list of inputs");
  return list.map((item) => {
    if (!isRecord(item)) throw invalid(`an input must be an object, got ${typeof item}`);
    const entry = item as Partial<SteerInput> & Record<string, unknown>;
    if (entry.type === "text" && typeof entry.text === "string" && entry.text.trim() !== "")
      return { type: "text", text: entry.text };
    if (entry.type === "localImage" && typeof entry.path === "string" && entry.path !== "")
      return { type: "localImage", path: readableImage(entry.path, cwd) };
    throw invalid(`an input must be {type:"text", text} with text or {type:"localImage", path}`);
  });
}

/** The absolute path of a steer's image once it is a readable image file. */
function readableImage(file: string, cwd: string): string {
  try {
    return resolveImageFiles([file], cwd)[0] ?? path.resolve(cwd, file);
  } catch (error) {
    throw invalid(errorMessage(error));
  }
}

function invalid(message: string): SteerError {
  return new SteerError("STEER_INPUT_INVALID", `session.steer(): ${message}`);
}
