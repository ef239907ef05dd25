import { constants } from "node:fs";
import { open } from "node:fs/promises";
import { isRecord } from "../../json-record.js";
import { printableText } from "../../printable-text.js";
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
  const flags = constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
  const handle = await open(file, flags).catch((error: NodeJS.ErrnoException) => error);
  if (!("stat" in handle)) return unreadable(openProblem(handle));
  try {
    const info = await handle.stat();
    if (!info.isFile()) return unreadable("not a regular file: not read");
    if (info.size > MAX_CONFIG_BYTES)
      return unreadable(`too large to read (${info.size} bytes; the limit is ${MAX_CONFIG_BYTES})`);
    const buffer = Buffer.alloc(MAX_CONFIG_BYTES + 1);
    let length = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
      if (length > MAX_CONFIG_BYTES) return unreadable(`grew beyond ${MAX_CONFIG_BYTES} bytes while read`);
    }
    return parse(buffer.subarray(0, length));
  } catch (error) {
    return unreadable(`cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  } finally {
    await handle.close().catch(() => undefined);
  }
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

function openProblem(error: NodeJS.ErrnoException): string {
  if (error.code === "ELOOP" || error.code === "EMLINK") return "a symlink: not followed, not read";
  if (error.code === "EACCES" || error.code === "EPERM") return "not readable by this user";
  return `cannot be read (${error.code ?? error.message})`;
}

function unreadable(problem: string): RepositoryConfigRead {
  return { type: "unreadable", problem };
}
