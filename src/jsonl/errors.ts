import type { RennetErrorCode } from "../error-codes.js";
import { RennetError } from "../errors.js";

/** A request to the peer that did not get its result; `method` names the request. */
abstract class JsonRpcRequestError<Code extends RennetErrorCode> extends RennetError<Code> {
  constructor(
    code: Code,
    readonly method: string,
    problem: string,
  ) {
    super(code, `${method} ${problem}`);
  }
}

/** A JSON-RPC error answered by the peer (a wire error with a numeric code). */
export class JsonRpcResponseError extends JsonRpcRequestError<"JSONRPC_ERROR"> {
  override readonly name = "JsonRpcResponseError";
  constructor(
    method: string,
    readonly rpcCode: number,
    readonly rpcMessage: string,
    readonly data: unknown,
  ) {
    super("JSONRPC_ERROR", method, `failed: ${rpcMessage} (JSON-RPC ${rpcCode})`);
  }
}

/** A request that got no answer before its deadline. */
export class RequestTimeoutError extends JsonRpcRequestError<"REQUEST_TIMEOUT"> {
  override readonly name = "RequestTimeoutError";
  constructor(
    method: string,
    readonly timeoutMs: number,
  ) {
    super("REQUEST_TIMEOUT", method, `got no response within ${timeoutMs} ms`);
  }
}

/** A request still pending when the connection closed. */
export class ConnectionClosedError extends JsonRpcRequestError<"CONNECTION_CLOSED"> {
  override readonly name = "ConnectionClosedError";
  constructor(
    method: string,
    readonly reason: string,
  ) {
    super("CONNECTION_CLOSED", method, `got no response: connection closed (${reason})`);
  }
}
