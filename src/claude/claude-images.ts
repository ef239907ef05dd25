import { statSync } from "node:fs";
import { imageContentType, imageFileContentType } from "../call/image-content.js";
import { InvalidTurnInputError, resolveImages } from "../call/turn-inputs.js";
import { readBoundedFile } from "../read-bounded-file.js";
import { imageMediaTypeOf, type ClaudeImage, type ClaudeImageMediaType } from "./stdin-messages.js";

/** What Claude Code takes as an image, for messages. */
const CLAUDE_IMAGE_TYPES =
  "Claude Code takes PNG, JPEG, GIF and WebP images, by the file's extension (.png, .jpg, .jpeg, .gif, .webp)";

/**
 * The largest image file sent to Claude Code, in bytes: the Messages API's request size limit (32 MB). The
 * file travels base64 in one stdin line, so a larger one is refused by its size before it is read; Claude Code
 * 2.1 scales an image over the API's 5 MB per-image limit down itself, 2.0 sends it as it is.
 */
const CLAUDE_IMAGE_MAX_BYTES = 32 * 1024 * 1024;

/**
 * The longest stdout line read from Claude Code, in bytes. Claude Code 2.0 echoes each user message back on
 * stdout as one line, its images' base64 included, so the cap holds the base64 of the largest image (42.7 MiB)
 * plus room for the prompt and the line's envelope. It stays a bound: a longer line is reported, never buffered.
 */
export const CLAUDE_STDOUT_MAX_LINE_BYTES = 48 * 1024 * 1024;

/**
 * Throws `InvalidTurnInputError` (`IMAGE_UNREADABLE`) when the file `file` (named `shown`) is larger than
 * {@link CLAUDE_IMAGE_MAX_BYTES}, by its size (nothing is read). A file that cannot be stat'ed passes: reading
 * it names the problem.
 */
function checkClaudeImageSize(file: string, shown: string = file): void {
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    return;
  }
  if (size > CLAUDE_IMAGE_MAX_BYTES)
    throw new InvalidTurnInputError(
      "IMAGE_UNREADABLE",
      `image ${shown}: ${megabytes(size)} (${size} bytes) is larger than the ${megabytes(CLAUDE_IMAGE_MAX_BYTES)} ` +
        "a Claude Code image may be (the Messages API's request size limit); give a smaller image",
    );
}

function megabytes(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, "")} MB`;
}

/**
 * The media type `file` is sent as. Throws `InvalidTurnInputError` (`IMAGE_UNREADABLE`) for an extension
 * Claude Code does not take; `shown` is how the message names the file (default `file`). Pure.
 */
function claudeImageType(file: string, shown: string = file): ClaudeImageMediaType {
  const mediaType = imageMediaTypeOf(file);
  if (mediaType === null)
    throw new InvalidTurnInputError("IMAGE_UNREADABLE", `image ${shown}: ${CLAUDE_IMAGE_TYPES}`);
  return mediaType;
}

/**
 * The media type of an image's bytes as they are sent, by their content, so that no other file's bytes (a
 * `.png` that links to a key file) leave the machine. Throws `InvalidTurnInputError` (`IMAGE_UNREADABLE`)
 * naming the file as `shown`. Pure.
 */
function claudeImageContentType(bytes: Uint8Array, shown: string): ClaudeImageMediaType {
  return imageContentType(bytes, shown, CLAUDE_IMAGE_TYPES);
}

/**
 * The image files of a Claude Code turn, as the library and the CLI's `--image` check them: each resolved
 * against `cwd`, a readable file ({@link resolveImages}), of a type Claude Code takes, by its extension and by
 * its leading bytes, and no larger than {@link CLAUDE_IMAGE_MAX_BYTES}. Throws `InvalidTurnInputError` (`IMAGE_UNREADABLE`) naming the file as given.
 */
export function resolveClaudeImages(images: readonly string[], cwd: string): string[] {
  const files = resolveImages(images, cwd);
  files.forEach((file, index) => {
    const shown = images[index] ?? file;
    claudeImageType(file, shown);
    checkClaudeImageSize(file, shown);
    imageFileContentType(file, shown, CLAUDE_IMAGE_TYPES);
  });
  return files;
}

/**
 * The image file `file` read whole, to be sent as the image type its content is. The file is checked again as it
 * is read, since it may have changed since the call checked it: only a regular file no larger than
 * {@link CLAUDE_IMAGE_MAX_BYTES} is read (a FIFO or device is refused, never waited on), and only an image's
 * bytes are sent. Rejects with `InvalidTurnInputError` (`IMAGE_UNREADABLE`) naming the file as `shown`.
 */
export async function readClaudeImage(file: string, shown: string = file): Promise<ClaudeImage> {
  claudeImageType(file, shown);
  checkClaudeImageSize(file, shown);
  const read = await readBoundedFile(file, CLAUDE_IMAGE_MAX_BYTES, { followSymlink: true });
  if (read.type === "unreadable")
    throw new InvalidTurnInputError("IMAGE_UNREADABLE", `image ${shown}: ${read.problem} (${file})`);
  return { mediaType: claudeImageContentType(read.bytes, shown), base64: read.bytes.toString("base64") };
}
