import { RennetError } from "../errors.js";

/**
 * One reason a valid schema cannot be used (`UnsupportedSchemaError.issues`). `pointer` is a JSON Pointer
 * fragment, `#` is the root. Not `SchemaIssue`, which is a place where a schema is not valid JSON Schema.
 */
export interface UnsupportedSchemaIssue {
  readonly pointer: string;
  readonly message: string;
}

/**
 * The caller's schema is valid JSON Schema but the harness cannot use it in the form it must send it (a strict
 * structured-output form; a tool input, which is an object). Lists every problem found.
 */
export class UnsupportedSchemaError extends RennetError<"SCHEMA_UNSUPPORTED"> {
  override readonly name = "UnsupportedSchemaError";
  /** `usedAs` completes "Output schema cannot be used …" (default: in strict structured-output mode). */
  constructor(
    readonly issues: readonly UnsupportedSchemaIssue[],
    usedAs?: string,
  ) {
    const shown = issues.slice(0, 5).map((issue) => `at ${issue.pointer}: ${issue.message}`);
    const more = issues.length > shown.length ? ` (+${issues.length - shown.length} more)` : "";
    const guide = usedAs === undefined ? " for what strict mode supports" : "";
    super(
      "SCHEMA_UNSUPPORTED",
      `Output schema cannot be used ${usedAs ?? "in strict structured-output mode"}: ${shown.join("; ")}${more}. ` +
        `See docs/structured-output.md${guide}.`,
    );
  }
}
