/** A JSON-RPC error answered by the peer (a wire error with a numeric code). */
export class JsonRpcResponseError extends Error {
  override readonly name = "JsonRpcResponseError";
  readonly code = "JSONRPC_ERROR";
  constructor(
    readonly method: string,
    readonly rpcCode: number,
    readonly rpcMessage: string,
    readonly data: unknown,
  ) {
    super(`${method} failed: ${rpcMessage} (JSON-RPC ${rpcCode})`);
  }
}

/** A request that got no answer before its deadline. */
export class RequestTimeoutError extends Error {
  override readonly name = "RequestTimeoutError";
  readonly code = "REQUEST_TIMEOUT";
  constructor(
    readonly method: string,
    readonly timeoutMs: number,
  ) {
    super(`${method} got no response within ${timeoutMs} ms`);
  }
}

/** A request still pending when the connection closed. */
export class ConnectionClosedError extends Error {
  override readonly name = "ConnectionClosedError";
  readonly code = "CONNECTION_CLOSED";
  constructor(
    readonly method: string,
    readonly reason: string,
  ) {
    super(`${method} got no response: connection closed (${reason})`);
  }
}
