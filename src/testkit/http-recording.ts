/**
 * Pieces the testkit's loopback HTTP servers share: reading and decoding a request body, recording headers,
 * answering JSON, pausing between streamed events. Node's `http` only; no state.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { constants as bufferConstants } from "node:buffer";
import * as zlib from "node:zlib";
import { RennetError } from "../errors.js";

/** The path without its query string. */
export function pathOnly(path: string): string {
  const query = path.indexOf("?");
  return query === -1 ? path : path.slice(0, query);
}

/** The whole body; rejects with `REQUEST_BODY_TOO_LARGE` past `maxBytes`. */
export function readBody(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        reject(new RennetError("REQUEST_BODY_TOO_LARGE", `request body over ${maxBytes} bytes`));
        req.resume();
        return;
      }
      chunks.push(chunk);
    });
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/**
 * The body as UTF-8 text after undoing a gzip, deflate, br or zstd content-encoding (raw when that fails); rejects
 * with `REQUEST_BODY_TOO_LARGE` when the decoded body would exceed `maxBytes`, so a small compressed body cannot
 * inflate past the server's limit.
 */
export function decodeBody(raw: Buffer, encoding: string | undefined, maxBytes: number): string {
  const limit = { maxOutputLength: Math.min(Math.max(1, maxBytes), bufferConstants.MAX_LENGTH) };
  try {
    switch (encoding?.trim().toLowerCase()) {
      case "gzip":
        return zlib.gunzipSync(raw, limit).toString("utf8");
      case "deflate":
        return zlib.inflateSync(raw, limit).toString("utf8");
      case "br":
        return zlib.brotliDecompressSync(raw, limit).toString("utf8");
      case "zstd": {
        const zstd = (zlib as { zstdDecompressSync?: (data: Buffer, options: object) => Buffer })
          .zstdDecompressSync;
        return zstd === undefined ? raw.toString("utf8") : zstd(raw, limit).toString("utf8");
      }
      default:
        return raw.toString("utf8");
    }
  } catch (error) {
    if ((error as { code?: unknown }).code === "ERR_BUFFER_TOO_LARGE")
      throw new RennetError("REQUEST_BODY_TOO_LARGE", `decoded request body over ${maxBytes} bytes`);
    return raw.toString("utf8");
  }
}

/** The parsed JSON body, or null when it is empty or not JSON. */
export function parseJson(text: string): unknown {
  if (text.length === 0) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** Header names as Node gives them (lower-case); repeated headers joined with `, `. */
export function flattenHeaders(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}

/** Answers `status` with a JSON body. */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const payload = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(payload) });
  res.end(payload);
}

/** Waits `ms`; resolves false when `signal` aborts first. */
export function pause(ms: number, signal: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal.aborted) {
      resolve(false);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", onAbort);
      resolve(true);
    }, ms);
    signal.addEventListener("abort", onAbort, { once: true });
  });
}

/** An error's message, or the value as text. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
