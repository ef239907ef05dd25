/** The JSON-RPC 2.0 error codes Rennet sends or recognises. Wire codes are numbers; local errors use string codes. */
export const JSON_RPC_CODES = {
  parseError: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internalError: -32603,
} as const;
