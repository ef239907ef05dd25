import type { JsonRpcConnection } from "../../jsonl/json-rpc-connection.js";
import { isRecord } from "../../json-record.js";
import { NotCodexError } from "../not-codex-error.js";
import { buildInitializeParams } from "../protocol/protocol-requests.js";
import { versionFromUserAgent } from "../versions/version-text.js";

/** What `initialize` told us about the app-server. */
export interface InitializeAnswer {
  /** `userAgent` as sent, e.g. `codex_cli_rs/0.171.0 (Linux …)`. */
  userAgent: string;
  /** The version parsed from `userAgent`; null when it names none. */
  codexVersion: string | null;
  /** The whole `initialize` result. */
  result: Record<string, unknown>;
}

export interface HandshakeOptions {
  /** Deadline of the `initialize` response. */
  timeoutMs: number;
  /** Declare `capabilities.experimentalApi` (for app tools). */
  experimentalApi?: boolean;
}

/**
 * The one `initialize` / `initialized` exchange every Rennet connection performs: `clientInfo` from the package
 * version ({@link buildInitializeParams}), then the `initialized` notification. Rejects with the connection's
 * errors (`JsonRpcResponseError`, `RequestTimeoutError`, `ConnectionClosedError`) and with
 * {@link NotCodexError} (`NOT_CODEX`) when the result is not an object with a `userAgent` string, which every
 * codex app-server sends (0.72 to 0.171).
 */
export async function performHandshake(
  conn: JsonRpcConnection,
  options: HandshakeOptions,
): Promise<InitializeAnswer> {
  const result = await conn.request(
    "initialize",
    buildInitializeParams({ experimentalApi: options.experimentalApi === true }),
    { timeoutMs: options.timeoutMs },
  );
  if (!isRecord(result) || typeof result.userAgent !== "string") throw new NotCodexError(result);
  conn.notify("initialized");
  const userAgent = result.userAgent;
  return { userAgent, codexVersion: versionFromUserAgent(userAgent), result };
}
