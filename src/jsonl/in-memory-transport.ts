import { PassThrough } from "node:stream";
import { StreamTransport, type StreamTransportOptions } from "./stream-transport.js";

/** One end of an in-memory pipe pair, with raw access for tests that need to send malformed bytes. */
export interface InMemoryEnd {
  transport: StreamTransport;
  /** Writes raw bytes to the other end, bypassing JSON serialization. */
  writeRaw(bytes: string | Uint8Array): void;
  /** Ends this end's output: the other end sees EOF. */
  endRaw(): void;
}

/**
 * Two transports joined by in-memory byte pipes. Frames are serialized and framed exactly as over stdio, so
 * protocol tests exercise the real framing code.
 */
export function createInMemoryTransportPair(
  options: StreamTransportOptions = {},
): [InMemoryEnd, InMemoryEnd] {
  const aToB = new PassThrough();
  const bToA = new PassThrough();
  const a = new StreamTransport(bToA, aToB, options);
  const b = new StreamTransport(aToB, bToA, options);
  return [
    { transport: a, writeRaw: (bytes) => aToB.write(bytes), endRaw: () => aToB.end() },
    { transport: b, writeRaw: (bytes) => bToA.write(bytes), endRaw: () => bToA.end() },
  ];
}
