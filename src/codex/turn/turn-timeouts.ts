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

const DEFAULT_TIMEOUTS: TurnTimeouts = {
  initializeMs: 30_000,
  threadStartMs: 30_000,
  turnStartMs: 30_000,
  turnMs: null,
};

/** A call's `timeouts` over the defaults: an entry left out or given as `undefined` keeps its default. Pure. */
export function withDefaultTimeouts(given: Partial<TurnTimeouts> | undefined): TurnTimeouts {
  return {
    initializeMs: given?.initializeMs ?? DEFAULT_TIMEOUTS.initializeMs,
    threadStartMs: given?.threadStartMs ?? DEFAULT_TIMEOUTS.threadStartMs,
    turnStartMs: given?.turnStartMs ?? DEFAULT_TIMEOUTS.turnStartMs,
    turnMs: given?.turnMs === undefined ? DEFAULT_TIMEOUTS.turnMs : given.turnMs,
  };
}
