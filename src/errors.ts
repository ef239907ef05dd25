/**
 * The base of every error Rennet throws or rejects with. `code` is a stable string a caller can switch on
 * (the table is in docs/errors.md); `cause` keeps the underlying error; `details` carries structured context
 * where a subclass has any. Subclasses exist where callers need `instanceof` or typed fields.
 */
export class RennetError<Code extends string = string> extends Error {
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
  }
}
