import { constants } from "node:buffer";
import { fstatSync } from "node:fs";
import type { Readable } from "node:stream";
import { checkPrompt } from "../call/turn-inputs.js";
import { isRennetError } from "../errors.js";
import { UsageError } from "./usage-error.js";

/**
 * Reads a whole stream as UTF-8 text (multi-byte characters split across chunks are kept intact). More than
 * `maxBytes` is a {@link UsageError} as soon as it arrives: the rest is not read. Bytes that are not UTF-8 are a
 * {@link UsageError} too: the prompt is never altered.
 */
async function readAll(
  stream: Readable,
  options: { command: string; maxBytes: number; signal?: AbortSignal | undefined },
): Promise<string> {
  const { command, maxBytes, signal } = options;
  const chunks: Buffer[] = [];
  let bytes = 0;
  const done = new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer | string): void => {
      const buffer = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
      bytes += buffer.length;
      chunks.push(buffer);
      if (bytes <= maxBytes) return;
      cleanup();
      stream.pause();
      chunks.length = 0;
      reject(
        new UsageError(
          `the prompt read from stdin is larger than ${maxBytes} bytes, more than rennet can hold: pass a shorter prompt`,
          command,
        ),
      );
    };
    const cleanup = (): void => {
      stream.off("data", onData);
      stream.off("end", onEnd);
      stream.off("error", onError);
      signal?.removeEventListener("abort", onAbort);
    };
    const onEnd = (): void => {
      cleanup();
      resolve();
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    const onAbort = (): void => {
      cleanup();
      stream.pause();
      reject(signal?.reason);
    };
    if (signal?.aborted) {
      onAbort();
      return;
    }
    stream.on("data", onData);
    stream.once("end", onEnd);
    stream.once("error", onError);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
  await done;
  try {
    // the bytes as they are: a byte order mark stays, and what is not UTF-8 is refused rather than replaced
    return new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(Buffer.concat(chunks));
  } catch {
    throw new UsageError(
      `the prompt read from stdin is not UTF-8 text: convert it first, e.g. \`iconv -f latin1 -t utf-8 task.md | ${command} -\``,
      command,
    );
  }
}

/**
 * The prompt: the argument itself, or all of stdin for `-`. Throws {@link UsageError} for an empty prompt
 * (nothing but whitespace), by the library's own check of a call's prompt (`PROMPT_EMPTY`), for a stdin of
 * more than `maxBytes` (default: the longest string Node can make) and for a stdin that is not UTF-8.
 */
export async function readPrompt(
  argument: string,
  stdin: Readable,
  options: { command: string; signal?: AbortSignal; maxBytes?: number },
): Promise<string> {
  const maxBytes = options.maxBytes ?? constants.MAX_STRING_LENGTH;
  const prompt =
    argument === "-"
      ? await readAll(stdin, { command: options.command, maxBytes, signal: options.signal })
      : argument;
  try {
    return checkPrompt(prompt, "the agent"); // only its verdict is used: the usage error below words it for the CLI
  } catch (error) {
    if (!isRennetError(error, "PROMPT_EMPTY")) throw error;
    throw new UsageError(
      argument !== "-"
        ? "the prompt is empty: pass the prompt as one quoted argument, or `-` to read it from stdin"
        : isDirectory(stdin)
          ? `stdin is a directory, not the prompt text: redirect a file (\`${options.command} - < task.md\`) or pipe the prompt in`
          : `the prompt read from stdin is empty: pipe the prompt text into \`rennet\`, e.g. \`echo 'fix the tests' | ${options.command} -\``,
      options.command,
    );
  }
}

/** Whether `stream` reads a directory (`rennet … - < dir`, which Node reads as empty). */
function isDirectory(stream: Readable): boolean {
  const fd = (stream as { fd?: unknown }).fd;
  if (typeof fd !== "number") return false;
  try {
    return fstatSync(fd).isDirectory();
  } catch {
    return false;
  }
}
