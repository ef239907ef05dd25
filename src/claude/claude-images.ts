import { closeSync, openSync, readSync } from "node:fs";
import { InvalidTurnInputError, resolveImages } from "../call/turn-inputs.js";
import { imageMediaTypeOf, type ClaudeImageMediaType } from "./stdin-messages.js";

/** What Claude Code takes as an image, for messages. */
export const CLAUDE_IMAGE_TYPES =
  "Claude Code takes PNG, JPEG, GIF and WebP images, by the file's extension (.png, .jpg, .jpeg, .gif, .webp)";

/** How many leading bytes {@link imageTypeOfContent} needs. */
const SIGNATURE_BYTES = 12;

/**
 * The media type `file` is sent as. Throws `InvalidTurnInputError` (`IMAGE_UNREADABLE`) for an extension
 * Claude Code does not take; `shown` is how the message names the file (default `file`). Pure.
 */
export function claudeImageType(file: string, shown: string = file): ClaudeImageMediaType {
  const mediaType = imageMediaTypeOf(file);
  if (mediaType === null)
    throw new InvalidTurnInputError("IMAGE_UNREADABLE", `image ${shown}: ${CLAUDE_IMAGE_TYPES}`);
  return mediaType;
}

/** The image type the file's leading bytes are the signature of (PNG, JPEG, GIF, WebP), or null. Pure. */
export function imageTypeOfContent(bytes: Uint8Array): ClaudeImageMediaType | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes[0] === 0x89 && ascii(1, 4) === "PNG") return "image/png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a") return "image/gif";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  return null;
}

/**
 * The media type of an image's bytes as they are sent, by their content, so that no other file's bytes (a
 * `.png` that links to a key file) leave the machine. Throws `InvalidTurnInputError` (`IMAGE_UNREADABLE`)
 * naming the file as `shown`. Pure.
 */
export function claudeImageContentType(bytes: Uint8Array, shown: string): ClaudeImageMediaType {
  const mediaType = imageTypeOfContent(bytes);
  if (mediaType === null)
    throw new InvalidTurnInputError(
      "IMAGE_UNREADABLE",
      `image ${shown}: its content is not a PNG, JPEG, GIF or WebP image; ${CLAUDE_IMAGE_TYPES}`,
    );
  return mediaType;
}

/**
 * The image files of a Claude Code turn, as the library and the CLI's `--image` check them: each resolved
 * against `cwd`, a readable file ({@link resolveImages}), of a type Claude Code takes, by its extension and by
 * its leading bytes. Throws `InvalidTurnInputError` (`IMAGE_UNREADABLE`) naming the file as given.
 */
export function resolveClaudeImages(images: readonly string[], cwd: string): string[] {
  const files = resolveImages(images, cwd);
  files.forEach((file, index) => {
    const shown = images[index] ?? file;
    claudeImageType(file, shown);
    claudeImageContentType(leadingBytes(file, shown), shown);
  });
  return files;
}

/** The first {@link SIGNATURE_BYTES} bytes of a regular file (fewer for a shorter one). */
function leadingBytes(file: string, shown: string): Uint8Array {
  const head = new Uint8Array(SIGNATURE_BYTES);
  let read: number;
  try {
    const fd = openSync(file, "r");
    try {
      read = readSync(fd, head, 0, SIGNATURE_BYTES, 0);
    } finally {
      closeSync(fd);
    }
  } catch {
    throw new InvalidTurnInputError("IMAGE_UNREADABLE", `image ${shown}: cannot be read (${file})`);
  }
  return head.subarray(0, read);
}
