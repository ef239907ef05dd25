/** Deadlines for each step of a turn, in milliseconds. */
export interface TurnTimeouts {
  /** `initialize` response. Default 30 000. */
  initializeMs: number;
  /** `thread/start` response (and the `config/read` before it). Default 30 000. */
  threadStartMs: number;
  /** `turn/start` acknowledgement. Default 30 000. */
  turnStartMs: number;
  /** The whole session, from the call to the terminal frame (discovery, spawn, handshake and turn). Default: none. */
  turnMs: number | null;
}

export const DEFAULT_TIMEOUTS: TurnTimeouts = {
  initializeMs: 30_000,
  threadStartMs: 30_000,
  turnStartMs: 30_000,
  turnMs: null,
};
