import type { RennetErrorCode } from "./error-codes.js";

/**
 * Marks every {@link RennetError}. Registered globally (`Symbol.for`), so an error made by another copy of this
 * package's modules (a loader that ran a lazily loaded part through `require` again, a second install) is still
 * recognized by {@link isRennetError}, where `instanceof` would not be.
 */
const RENNET_ERROR = Symbol.for("rennet-adapters.error");

/**
 * The base of every error Rennet throws or rejects with. `code` is a stable string a caller can switch on
 * (the table is in docs/errors.md); `cause` keeps the underlying error; `details` carries structured context
 * where a subclass has any. Subclasses exist where callers need `instanceof` or typed fields.
 */
export class RennetError<Code extends RennetErrorCode = RennetErrorCode> extends Error {
  /**
   * Types `instanceof` only (the check itself is the ordinary prototype-chain one): `x instanceof RennetError`
   * narrows `x.code` to {@link RennetErrorCode} rather than `any`, and `x instanceof TurnFailedError` to that
   * subclass with its fields.
   */
  declare static readonly [Symbol.hasInstance]: <T>(
    this: abstract new (...args: never) => T,
    value: unknown,
  ) => value is T;
  override name = "RennetError";
  readonly code: Code;
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    code: Code,
    message: string,
    options: { cause?: unknown; details?: Record<string, unknown> } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details;
    Object.defineProperty(this, RENNET_ERROR, { value: true });
  }
}

/**
 * Whether `value` is a {@link RennetError} (of any copy of this package), with `code` when one is given. Code
 * that receives errors across a lazily loaded module checks them with this rather than `instanceof`.
 */
export function isRennetError<Code extends RennetErrorCode = RennetErrorCode>(
  value: unknown,
  code?: Code,
): value is RennetError<Code> {
  if (typeof value !== "object" || value === null) return false;
  if (!(value instanceof RennetError) && (value as Record<symbol, unknown>)[RENNET_ERROR] !== true)
    return false;
  return code === undefined || (value as RennetError).code === code;
}

/** Whether `value` carries a string `message` (an `Error` of any realm, or an error-like object). */
export function hasMessage(value: unknown): value is { message: string } {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { message?: unknown }).message === "string"
  );
}

/**
 * The text of anything thrown: its `message` when it has one, else `String(value)`, else (an object without a
 * prototype, a `message` or `toString` that throws) its `Object.prototype.toString` tag. Never throws: what an
 * app's callback throws may be anything. Pure.
 */
export function errorMessage(value: unknown): string {
  try {
    return hasMessage(value) ? value.message : String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
