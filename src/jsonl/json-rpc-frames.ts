/** Classification of one incoming JSON-RPC frame (a frame without the `jsonrpc` member is read the same). Pure. */
export type IncomingFrame =
  | { kind: "notification"; method: string; params: unknown; frame: Record<string, unknown> }
  | { kind: "request"; id: number | string; method: string; params: unknown; frame: Record<string, unknown> }
  | { kind: "response"; id: number | string; result: unknown; frame: Record<string, unknown> }
  | {
      kind: "error-response";
      id: number | string | null;
      error: { code: number; message: string; data: unknown };
      frame: Record<string, unknown>;
    }
  | { kind: "unknown"; frame: Record<string, unknown> };

function isId(value: unknown): value is number | string {
  return (typeof value === "number" && Number.isFinite(value)) || typeof value === "string";
}

export function classifyFrame(frame: Record<string, unknown>): IncomingFrame {
  const { method, id } = frame;
  if (typeof method === "string") {
    if (isId(id)) return { kind: "request", id, method, params: frame.params, frame };
    if (id === undefined) return { kind: "notification", method, params: frame.params, frame };
    return { kind: "unknown", frame };
  }
  if ("error" in frame && (isId(id) || id === null)) {
    const raw = frame.error;
    if (typeof raw === "object" && raw !== null) {
      const e = raw as Record<string, unknown>;
      return {
        kind: "error-response",
        id: id ?? null,
        error: {
          code: typeof e.code === "number" ? e.code : 0,
          message: typeof e.message === "string" ? e.message : JSON.stringify(raw),
          data: e.data,
        },
        frame,
      };
    }
  }
  if ("result" in frame && isId(id)) return { kind: "response", id, result: frame.result, frame };
  return { kind: "unknown", frame };
}
