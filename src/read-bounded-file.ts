import { constants } from "node:fs";
import { open } from "node:fs/promises";

/** Why {@link readBoundedFile} read nothing. */
export type UnreadableReason = "missing" | "symlink" | "denied" | "not-a-file" | "too-large" | "error";

/** A whole file's bytes, or why they were not read (`problem`: a phrase to print after the file's name). */
export type BoundedFileRead =
  { type: "read"; bytes: Buffer } | { type: "unreadable"; reason: UnreadableReason; problem: string };

/** The most bytes asked of the file in one read. */
const CHUNK_BYTES = 64 * 1024;

/**
 * Reads a whole file that may be hostile or broken (a repository's file, a cache another process could have
 * replaced) without following, blocking or ballooning:
 * - a symlink as the last path component is not followed (`reason: "symlink"`), so it cannot name another file,
 *   unless `options.followSymlink` is set (for a file of the user's own, such as a dotfile manager's link);
 * - the file is opened non-blocking and checked on the opened descriptor, so only a regular file is read: a FIFO,
 *   socket or device (which could block forever or never end) is `"not-a-file"`, whatever raced the open;
 * - at most `maxBytes` are read: a larger file, or one that grows past it while read, is `"too-large"`.
 * Never rejects; the descriptor is always closed.
 */
export async function readBoundedFile(
  file: string,
  maxBytes: number,
  options: { followSymlink?: boolean } = {},
): Promise<BoundedFileRead> {
  const noFollow = options.followSymlink === true ? 0 : (constants.O_NOFOLLOW ?? 0);
  const flags = constants.O_RDONLY | noFollow | (constants.O_NONBLOCK ?? 0);
  const handle = await open(file, flags).catch((error: NodeJS.ErrnoException) => error);
  if (!("stat" in handle)) return openFailure(handle);
  try {
    const info = await handle.stat();
    if (!info.isFile()) return unreadable("not-a-file", "not a regular file: not read");
    if (info.size > maxBytes)
      return unreadable("too-large", `too large to read (${info.size} bytes; the limit is ${maxBytes})`);
    const chunks: Buffer[] = [];
    let length = 0;
    for (;;) {
      // one byte past the limit is asked for, so a file that grew is seen to have grown
      const room = maxBytes + 1 - length;
      const chunk = Buffer.allocUnsafe(Math.min(room, Math.max(info.size + 1, CHUNK_BYTES)));
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) break;
      chunks.push(chunk.subarray(0, bytesRead));
      length += bytesRead;
      if (length > maxBytes) return unreadable("too-large", `grew beyond ${maxBytes} bytes while read`);
    }
    return { type: "read", bytes: Buffer.concat(chunks, length) };
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return unreadable("error", `cannot be read (${code})`);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

function openFailure(error: NodeJS.ErrnoException): BoundedFileRead {
  switch (error.code) {
    case "ELOOP":
    case "EMLINK":
      return unreadable("symlink", "a symlink: not followed, not read");
    case "EACCES":
    case "EPERM":
      return unreadable("denied", "not readable by this user");
    case "ENOENT":
    case "ENOTDIR":
      return unreadable("missing", `cannot be read (${error.code})`);
    default:
      return unreadable("error", `cannot be read (${error.code ?? error.message})`);
  }
}

function unreadable(reason: UnreadableReason, problem: string): BoundedFileRead {
  return { type: "unreadable", reason, problem };
}
