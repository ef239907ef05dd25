/**
 * What an image file holds, by its leading bytes: both harnesses take PNG, JPEG, GIF and WebP images (codex
 * 0.171 replaces any other file with a note that its content was omitted), so a call checks the content of each
 * image before anything starts, reading no more than its signature.
 */
import { closeSync, constants, fstatSync, openSync, readSync } from "node:fs";
import { InvalidTurnInputError, resolveImages } from "./turn-inputs.js";

/** The media types of the images a turn takes. */
export type ImageMediaType = "image/png" | "image/jpeg" | "image/gif" | "image/webp";

/** How many leading bytes {@link imageTypeOfContent} needs. */
const SIGNATURE_BYTES = 12;

/** The image type the leading bytes are the signature of (PNG, JPEG, GIF, WebP), or null. Pure. */
function imageTypeOfContent(bytes: Uint8Array): ImageMediaType | null {
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes[0] === 0x89 && ascii(1, 4) === "PNG") return "image/png";
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  if (ascii(0, 6) === "GIF87a" || ascii(0, 6) === "GIF89a") return "image/gif";
  if (ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "image/webp";
  return null;
}

/**
 * The media type of an image's bytes, by their content. Throws `InvalidTurnInputError` (`IMAGE_UNREADABLE`)
 * naming the file as `shown`, with `hint` (what the agent takes) after the reason. Pure.
 */
export function imageContentType(bytes: Uint8Array, shown: string, hint?: string): ImageMediaType {
  const mediaType = imageTypeOfContent(bytes);
  if (mediaType === null)
    throw new InvalidTurnInputError(
      "IMAGE_UNREADABLE",
      `image ${shown}: ${bytes.length === 0 ? "the file is empty, not" : "its content is not"} a PNG, JPEG, GIF or WebP image${hint === undefined ? "" : `; ${hint}`}`,
    );
  return mediaType;
}

/**
 * The media type of the image file `file` by its leading bytes (read, nothing more). Throws
 * `InvalidTurnInputError` (`IMAGE_UNREADABLE`) naming the file as `shown`.
 */
export function imageFileContentType(file: string, shown: string, hint?: string): ImageMediaType {
  return imageContentType(leadingBytes(file, shown), shown, hint);
}

/**
 * The images of a turn as absolute paths (relative ones against `cwd`), each a readable file
 * ({@link resolveImages}) whose content is a PNG, JPEG, GIF or WebP image. Throws `InvalidTurnInputError`
 * (`IMAGE_UNREADABLE`) naming the file as given.
 */
export function resolveImageFiles(images: readonly string[], cwd: string, hint?: string): string[] {
  const files = resolveImages(images, cwd);
  files.forEach((file, index) => imageFileContentType(file, images[index] ?? file, hint));
  return files;
}

/**
 * The first {@link SIGNATURE_BYTES} bytes of a regular file (fewer for a shorter one). The file is opened
 * non-blocking and checked on the opened descriptor, so one replaced since it was checked by a FIFO or device is
 * refused, never waited on.
 */
function leadingBytes(file: string, shown: string): Uint8Array {
  const head = new Uint8Array(SIGNATURE_BYTES);
  let read: number;
  try {
    const fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    try {
      if (fstatSync(fd).isFile()) read = readSync(fd, head, 0, SIGNATURE_BYTES, 0);
      else throw new InvalidTurnInputError("IMAGE_UNREADABLE", `image ${shown}: is not a file (${file})`);
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    if (error instanceof InvalidTurnInputError) throw error;
    throw new InvalidTurnInputError("IMAGE_UNREADABLE", `image ${shown}: cannot be read (${file})`);
  }
  return head.subarray(0, read);
}
