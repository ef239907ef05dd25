import { isRecord } from "../../json-record.js";
import { printableText } from "../../printable-text.js";
import { readBoundedFile } from "../../read-bounded-file.js";
import { summarizeRepositoryConfig, type ClaudeRepositoryConfig } from "./repository-config.js";

/** The largest settings or `.mcp.json` file read (Claude Code's own are a few KB). */
export const MAX_CONFIG_BYTES = 1024 * 1024;

/** A repository file's summary, or why it was not read. */
export type RepositoryConfigRead =
  { type: "read"; config: ClaudeRepositoryConfig } | { type: "unreadable"; problem: string };

/**
 * Reads one repository JSON file as hostile input: a symlink is not followed (it could name the user's own
 * files), only a regular file is opened (never a FIFO or a device, which could block or never end), at most
 * {@link MAX_CONFIG_BYTES} are read, and invalid UTF-8, invalid JSON or a value that is not an object is a
 * `problem` that says so. Never throws.
 */
export async function readRepositoryConfig(file: string): Promise<RepositoryConfigRead> {
  const read = await readBoundedFile(file, MAX_CONFIG_BYTES);
  return read.type === "read" ? parse(read.bytes) : unreadable(read.problem);
}

function parse(bytes: Buffer): RepositoryConfigRead {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return unreadable("not UTF-8 text");
  }
  if (text.trim() === "") return unreadable("empty");
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return unreadable(
      `not valid JSON: ${printableText(error instanceof Error ? error.message : String(error), 120)}`,
    );
  }
  if (!isRecord(json))
    return unreadable(
      `holds ${json === null ? "null" : Array.isArray(json) ? "an array" : `a ${typeof json}`}, not a JSON object`,
    );
  return { type: "read", config: summarizeRepositoryConfig(json) };
}

function unreadable(problem: string): RepositoryConfigRead {
  return { type: "unreadable", problem };
}
