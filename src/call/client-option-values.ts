/**
 * The values of the options every harness's client takes (`env`, `launcher`, `interruptGraceMs`,
 * `reapOrphans`; see `shared-option-keys.ts`), checked when the client is made (and by the one-off calls that
 * take `env` or `launcher` too: discovery, the trust and MCP isolation checks), so that a value of the wrong type
 * is `OPTIONS_INVALID` naming it instead of a run without the caller's environment or a `TypeError` of its own.
 */
import { describeValue as describe, InvalidOptionsError } from "./option-keys.js";

/** The shared client options, as a caller may have passed them. */
interface SharedClientValues {
  env?: unknown;
  launcher?: unknown;
  interruptGraceMs?: unknown;
  reapOrphans?: unknown;
}

/**
 * `env` an object of string values (like `process.env`), `launcher` a function, `interruptGraceMs` a finite
 * number of 0 or more, `reapOrphans` a boolean; each may be absent. Throws {@link InvalidOptionsError}
 * `OPTIONS_INVALID`. Pure.
 */
export function checkClientOptionValues(options: SharedClientValues): void {
  const { env, launcher, interruptGraceMs, reapOrphans } = options;
  if (env !== undefined) checkEnv(env);
  if (launcher !== undefined && typeof launcher !== "function")
    invalid(`launcher must be a function (spec) => child, got ${describe(launcher)}`);
  if (
    interruptGraceMs !== undefined &&
    !(typeof interruptGraceMs === "number" && Number.isFinite(interruptGraceMs) && interruptGraceMs >= 0)
  )
    invalid(`interruptGraceMs must be a number of milliseconds, got ${describe(interruptGraceMs)}`);
  if (reapOrphans !== undefined && typeof reapOrphans !== "boolean")
    invalid(`reapOrphans must be true or false, got ${describe(reapOrphans)}`);
}

/** `env` is an object (not an array) whose own values are strings or `undefined`. */
function checkEnv(env: unknown): void {
  if (typeof env !== "object" || env === null || Array.isArray(env))
    invalid(`env must be an object of environment variables (like process.env), got ${describe(env)}`);
  for (const [name, value] of Object.entries(env))
    if (value !== undefined && typeof value !== "string")
      invalid(`env.${name} must be a string (an environment variable's value), got ${describe(value)}`);
}

function invalid(message: string): never {
  throw new InvalidOptionsError("OPTIONS_INVALID", message);
}
