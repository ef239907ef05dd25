/** Why a transport stopped delivering frames. */
export type TransportClosed =
  /**
   * The peer closed its output (EOF on the child's stdout). `cut` is set when the output ended inside a line that
   * is not a frame: a writer that stopped mid-line (a crash, an exit with writes still queued), not a bad frame.
   */
  | { type: "eof"; cut?: CutLine }
  /** Writing to the peer failed (EPIPE, destroyed stream, …). */
  | { type: "write-error"; message: string }
  /** The local side called `close()`. */
  | { type: "local" };

/** The start of a last line the peer did not finish, and how many bytes of it arrived. */
export interface CutLine {
  bytes: number;
  head: string;
}

/** Receives what a {@link Transport} reads. */
export interface TransportListener {
  /** One JSON object read from the peer. */
  frame(frame: Record<string, unknown>): void;
  /** A line that is not a JSON object, one over the size cap, or one nested too deeply. The transport keeps reading. */
  invalid(message: string, line: string): void;
  /** Called once; no frame follows it. */
  closed(reason: TransportClosed): void;
}

/**
 * A message transport carrying one JSON object per line. It knows nothing about JSON-RPC.
 * `send` never throws: a failed write is reported once through `closed({type:"write-error"})`.
 */
export interface Transport {
  /** Starts reading; call once. */
  start(listener: TransportListener): void;
  /** Serializes and writes one frame. Returns false when the transport is closed or the frame is not serializable. */
  send(frame: object): boolean;
  /** Ends the output stream (the peer sees EOF on its stdin); reading goes on until the peer closes. */
  endOutput(): void;
  /** Stops reading and writing, and reports `closed({type:"local"})` unless already closed. */
  close(): void;
  /**
   * Stops delivering frames until `resume()`: what the peer writes meanwhile stays unread (in the pipe, so a
   * child writing to it blocks). Frames of a chunk already read are held and delivered first on `resume()`.
   * Writing is not affected. Optional: a transport without it is never paused.
   */
  pause?(): void;
  /** Delivers what `pause()` held back, in order, then reads on. Does nothing unless paused. */
  resume?(): void;
  readonly isClosed: boolean;
}
