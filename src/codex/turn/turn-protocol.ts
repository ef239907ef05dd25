/**
 * The half of a turn that speaks with a running codex: the JSON-RPC connection, the start sequence (`initialize` to `turn/start`), the
 * mapping of its notifications to harness events, and the answers to its requests. The turn runner loads this
 * module after spawning codex, so that loading it overlaps codex's own start-up.
 */
export { JsonRpcConnection } from "../../jsonl/json-rpc-connection.js";
export { answerRequest } from "./approvals.js";
export { TurnEventMapper } from "./event-mapper.js";
export { startTurn } from "./turn-start.js";
