import { ConnectionClosedError, JsonRpcResponseError, RequestTimeoutError } from "./errors.js";
import { classifyFrame, type IncomingFrame } from "./json-rpc-frames.js";
import type { Transport, TransportClosed } from "./transport.js";
import { RennetError } from "../errors.js";

/** What a connection hands to its owner. Each callback is synchronous and must not throw. */
export interface ConnectionHandlers {
  notification(frame: Extract<IncomingFrame, { kind: "notification" }>): void;
  /** A server→client request. The owner must answer it with `respond` or `respondError`. */
  request(frame: Extract<IncomingFrame, { kind: "request" }>): void;
  /** A response to an id this connection never sent (or already settled), or a frame of no known shape. */
  stray(frame: Record<string, unknown>, why: "unmatched-response" | "unknown-shape"): void;
  /** A line that is not a JSON object. */
  invalid(message: string, line: string): void;
  closed(reason: TransportClosed): void;
}

export interface RequestOptions {
  /** Reject with {@link RequestTimeoutError} when no response arrives in time. */
  timeoutMs?: number;
  /**
   * Called with the `result` while the response frame is being routed: synchronously, before the returned
   * promise settles and before the connection hands any later frame (of the same chunk or any other) to the
   * handlers. Lets the caller act on the response (adopt an id) before frames that follow it are seen. If it
   * throws, the promise rejects with what it threw.
   */
  onResult?(result: unknown): void;
  /** Like `onResult`, for an error response: called with the error the promise then rejects with. */
  onError?(error: JsonRpcResponseError): void;
}

interface Pending {
  method: string;
  resolve(value: unknown): void;
  reject(error: unknown): void;
  timer: NodeJS.Timeout | undefined;
  onResult: ((result: unknown) => void) | undefined;
  onError: ((error: JsonRpcResponseError) => void) | undefined;
}

/**
 * JSON-RPC over a {@link Transport}: numeric request ids, response correlation, routing of notifications and
 * server requests. On close every pending request is rejected and every timer cleared.
 */
export class JsonRpcConnection {
  readonly #transport: Transport;
  readonly #handlers: ConnectionHandlers;
  readonly #pending = new Map<number, Pending>();
  #nextId = 1;
  #closedReason: TransportClosed | null = null;

  constructor(transport: Transport, handlers: ConnectionHandlers) {
    this.#transport = transport;
    this.#handlers = handlers;
    transport.start({
      frame: (frame) => this.#onFrame(frame),
      invalid: (message, line) => handlers.invalid(message, line),
      closed: (reason) => this.#onClosed(reason),
    });
  }

  get closedReason(): TransportClosed | null {
    return this.#closedReason;
  }

  /** Ids this connection has sent and not yet seen answered. */
  get pendingCount(): number {
    return this.#pending.size;
  }

  /** Sends a request; resolves with its `result`, rejects with a typed error. */
  request(method: string, params: unknown, options: RequestOptions = {}): Promise<unknown> {
    if (this.#closedReason) {
      return Promise.reject(new ConnectionClosedError(method, this.#closedReason.type));
    }
    try {
      JSON.stringify(params);
    } catch (error) {
      // a cycle or a BigInt: a defect in what Rennet built from the call, reported as such
      return Promise.reject(
        new RennetError("INTERNAL_ERROR", `${method} params are not JSON: ${String(error)}`, {
          cause: error,
        }),
      );
    }
    const id = this.#nextId++;
    return new Promise<unknown>((resolve, reject) => {
      const pending: Pending = {
        method,
        resolve,
        reject,
        timer: undefined,
        onResult: options.onResult,
        onError: options.onError,
      };
      if (options.timeoutMs !== undefined) {
        pending.timer = setTimeout(() => {
          this.#pending.delete(id);
          reject(new RequestTimeoutError(method, options.timeoutMs ?? 0));
        }, options.timeoutMs);
      }
      this.#pending.set(id, pending);
      const frame = params === undefined ? { id, method } : { id, method, params };
      if (!this.#transport.send(frame)) {
        this.#settle(id)?.reject(new ConnectionClosedError(method, "not writable"));
      }
    });
  }

  /** Sends a notification. Returns false when the transport is closed. */
  notify(method: string, params?: unknown): boolean {
    return this.#transport.send(params === undefined ? { method } : { method, params });
  }

  respond(id: number | string, result: unknown): boolean {
    return this.#transport.send({ id, result });
  }

  respondError(id: number | string, code: number, message: string, data?: unknown): boolean {
    const error = data === undefined ? { code, message } : { code, message, data };
    return this.#transport.send({ id, error });
  }

  /** Ends stdin for the peer (graceful shutdown) without closing the read side. */
  endOutput(): void {
    this.#transport.endOutput();
  }

  close(): void {
    this.#transport.close();
  }

  /** The request a response answers, settled; a response that answers none is reported as stray. */
  #settleAnswered(id: unknown, raw: Record<string, unknown>): Pending | undefined {
    const pending = typeof id === "number" ? this.#settle(id) : undefined;
    if (!pending) this.#handlers.stray(raw, "unmatched-response");
    return pending;
  }

  #settle(id: number): Pending | undefined {
    const pending = this.#pending.get(id);
    if (!pending) return undefined;
    this.#pending.delete(id);
    if (pending.timer) clearTimeout(pending.timer);
    return pending;
  }

  #onFrame(raw: Record<string, unknown>): void {
    const frame = classifyFrame(raw);
    switch (frame.kind) {
      case "notification":
        this.#handlers.notification(frame);
        return;
      case "request":
        this.#handlers.request(frame);
        return;
      case "response": {
        const pending = this.#settleAnswered(frame.id, raw);
        if (!pending) return;
        try {
          pending.onResult?.(frame.result);
        } catch (error) {
          pending.reject(error);
          return;
        }
        pending.resolve(frame.result);
        return;
      }
      case "error-response": {
        const pending = this.#settleAnswered(frame.id, raw);
        if (!pending) return;
        const error = new JsonRpcResponseError(
          pending.method,
          frame.error.code,
          frame.error.message,
          frame.error.data,
        );
        try {
          pending.onError?.(error);
        } catch (thrown) {
          pending.reject(thrown);
          return;
        }
        pending.reject(error);
        return;
      }
      case "unknown":
        this.#handlers.stray(raw, "unknown-shape");
        return;
    }
  }

  #onClosed(reason: TransportClosed): void {
    if (this.#closedReason) return;
    this.#closedReason = reason;
    for (const id of [...this.#pending.keys()]) {
      const pending = this.#settle(id);
      pending?.reject(new ConnectionClosedError(pending.method, reason.type));
    }
    this.#handlers.closed(reason);
  }
}
