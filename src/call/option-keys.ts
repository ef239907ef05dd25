/**
 * Checking a caller's option object against the keys an entry point knows, for every harness's client. An
 * unknown key is refused before anything starts, with what to write instead: the Rennet name for an option of
 * the harness vendor's own SDK, the entry point a key of another call belongs to, or the closest known key.
 */
import { RennetError } from "../errors.js";
import { didYouMean } from "../did-you-mean.js";
import { cutText } from "../printable-text.js";

/**
 * Options a caller passed that Rennet does not take, or not in that form; thrown before anything starts.
 * `LIMIT_UNSUPPORTED`: a limit the harness reports nothing to check against (a cost on Codex).
 */
export class InvalidOptionsError extends RennetError<
  "OPTION_UNKNOWN" | "OPTIONS_INVALID" | "LIMIT_UNSUPPORTED"
> {
  override readonly name = "InvalidOptionsError";
}

/** Every key of `T`, each exactly once. */
export type KeySet<T> = { readonly [K in keyof Required<T>]: true };

/** A known-key list: its name (for messages) and keys. */
export interface KnownOptions {
  /** How a message names the options, e.g. `createCodex() options`. */
  readonly name: string;
  readonly keys: readonly string[];
  /**
   * The key a string passed in place of the options stands for, in the message's fix; null for none. Default:
   * the first of `prompt`, `codex`, `claude`, `cwd` among `keys`.
   */
  readonly stringKey?: string | null;
}

/** A known-key list checked against its options type: a key missing from `keys` (or extra) does not compile. */
export function known<T>(name: string, keys: KeySet<T>, stringKey?: (keyof T & string) | null): KnownOptions {
  return { name, keys: Object.keys(keys), ...(stringKey !== undefined ? { stringKey } : {}) };
}

/** What a harness's client says about keys it does not take. */
export interface OptionHints {
  /** The vendor SDK whose option names `sdk` holds, e.g. `OpenAI's Codex SDK`. */
  readonly sdkName: string;
  /** What to use instead of an option of that SDK, by its name. */
  readonly sdk: ReadonlyMap<string, string>;
  /** Names callers reach for that mean a Rennet option: the option, by name. */
  readonly aliases: ReadonlyMap<string, string>;
  /** Where a key that belongs to another entry point goes, by key. */
  readonly otherPlaces: ReadonlyMap<string, string>;
}

/** The option a string passed in place of the options object most likely is, the first one the call takes. */
const STRING_MEANS: readonly string[] = ["prompt", "codex", "claude", "cwd"];

/**
 * Checks that `options` is a plain object (or absent, when `optional`) whose own keys are all in `known`. An
 * unknown key is {@link InvalidOptionsError} `OPTION_UNKNOWN` naming it, with the hint `hints` give; a known key
 * present only on the prototype is `OPTIONS_INVALID`. A key whose value is `undefined` counts like any other. Pure.
 */
export function checkOptionKeys(
  options: unknown,
  known: KnownOptions,
  hints: OptionHints,
  optional = false,
): void {
  if (options === undefined && optional) return;
  if (typeof options !== "object" || options === null || Array.isArray(options)) {
    const got = Array.isArray(options) ? "an array" : options === null ? "null" : typeof options;
    const meant =
      typeof options !== "string"
        ? undefined
        : known.stringKey !== undefined
          ? known.stringKey
          : STRING_MEANS.find((key) => known.keys.includes(key));
    throw new InvalidOptionsError(
      "OPTIONS_INVALID",
      `${known.name} must be an object, got ${got}` +
        (meant != null ? `: pass { ${meant}: ${JSON.stringify((options as string).slice(0, 40))} }` : ""),
    );
  }
  // a value read from the prototype (a polluted Object.prototype, an Object.create(defaults)) is not one the
  // caller passed: refused, so that what is checked and what runs are the same own properties
  const inherited = known.keys.filter((key) => key in options && !Object.hasOwn(options, key));
  if (inherited.length > 0)
    throw new InvalidOptionsError(
      "OPTIONS_INVALID",
      `${known.name}: ${inherited.map((key) => `\`${key}\``).join(", ")} inherited from the object's prototype, ` +
        "not its own: pass the options as own properties of a plain object",
      { details: { inherited } },
    );
  const unknown = Object.keys(options).filter((key) => !known.keys.includes(key));
  if (unknown.length === 0) return;
  const lines = unknown.map((key) => `\`${key}\`: ${hintFor(key, known, hints)}`);
  throw new InvalidOptionsError(
    "OPTION_UNKNOWN",
    `${known.name}: unknown option${unknown.length > 1 ? "s" : ""} ${lines.join("; ")} ` +
      `(known: ${known.keys.join(", ")})`,
    { details: { unknown } },
  );
}

/**
 * What to write instead of `key`: the Rennet name of a vendor SDK option, the entry point the key (or an alias of
 * it) belongs to, the closest known key, else the closest key of another entry point and where it goes. Pure.
 */
function hintFor(key: string, known: KnownOptions, hints: OptionHints): string {
  const sdk = hints.sdk.get(key);
  if (sdk !== undefined) return `an option of ${hints.sdkName}; ${sdk}`;
  const alias = hints.aliases.get(key);
  if (alias !== undefined && known.keys.includes(alias)) return `did you mean \`${alias}\`?`;
  const elsewhere = hints.otherPlaces.get(alias ?? key) ?? hints.otherPlaces.get(key);
  if (elsewhere !== undefined) return `not one of these; ${elsewhere}`;
  const close = didYouMean(key, known.keys);
  if (close !== null) return `did you mean \`${close}\`?`;
  // a typo of a key that belongs to another entry point (`modle` given to the client): that key, and where
  const near = didYouMean(key, [...hints.otherPlaces.keys()]);
  return near === null
    ? "not an option here"
    : `did you mean \`${near}\`? ${hints.otherPlaces.get(near) as string}`;
}

/** `value` is an `AbortSignal` (or absent); otherwise `OPTIONS_INVALID` naming `name`. Pure. */
export function checkSignal(value: unknown, name = "signal"): void {
  if (value === undefined || isAbortSignal(value)) return;
  throw new InvalidOptionsError(
    "OPTIONS_INVALID",
    `${name} must be an AbortSignal (e.g. new AbortController().signal), got ${describeValue(value)}`,
  );
}

/**
 * `images` is an array of file paths (or absent); otherwise `OPTIONS_INVALID` naming the array, or the first
 * entry that is not a path and its value. Pure.
 */
export function checkImagePaths(images: unknown): void {
  if (images === undefined) return;
  if (!Array.isArray(images))
    throw new InvalidOptionsError(
      "OPTIONS_INVALID",
      `images must be an array of file paths, got ${describeValue(images)}`,
    );
  const at = images.findIndex((image) => typeof image !== "string");
  if (at !== -1)
    throw new InvalidOptionsError(
      "OPTIONS_INVALID",
      `images[${at}] must be a file path (a string), got ${describeValue(images[at])}`,
    );
}

/** An `AbortSignal`, or a polyfill that behaves as one. */
function isAbortSignal(value: unknown): value is AbortSignal {
  if (value instanceof AbortSignal) return true;
  const candidate = value as Partial<AbortSignal> | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.aborted === "boolean" &&
    typeof candidate.addEventListener === "function" &&
    typeof candidate.removeEventListener === "function"
  );
}

/** How a message shows a value of the wrong type: text as JSON, cut to 60 characters and `…` on a character boundary. Pure. */
export function describeValue(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  if (typeof value === "string") return JSON.stringify(cutText(value, 61));
  if (typeof value === "object") return "an object";
  return `${typeof value} ${String(value)}`;
}

/** The largest delay Node timers accept (2^31 - 1 ms); a longer one would fire at once. */
export const MAX_TIMER_MS = 2_147_483_647;

/**
 * Each entry of a `timeouts` object (its keys already checked) is a number of milliseconds from 1 to
 * {@link MAX_TIMER_MS}; `turnMs` may also be null (no overall deadline). Pure.
 */
export function checkTimeoutValues(timeouts: Record<string, unknown>): void {
  for (const [key, ms] of Object.entries(timeouts)) {
    if (ms === undefined || (key === "turnMs" && ms === null)) continue;
    checkMilliseconds(`timeouts.${key}`, ms, key === "turnMs" ? " (or null for none)" : "");
  }
}

/**
 * `ms` is a number of milliseconds from 1 to {@link MAX_TIMER_MS}; otherwise `OPTIONS_INVALID` naming the
 * option `name` (with `alternative`, e.g. ` (or null for none)`, after the range). Pure.
 */
export function checkMilliseconds(name: string, ms: unknown, alternative = ""): void {
  if (typeof ms !== "number" || !Number.isFinite(ms) || ms <= 0 || ms > MAX_TIMER_MS)
    throw new InvalidOptionsError(
      "OPTIONS_INVALID",
      `${name} must be a number of milliseconds from 1 to ${MAX_TIMER_MS}${alternative}, got ${describeValue(ms)}`,
    );
}
