import { RennetError } from "../../errors.js";

/** One reason a schema cannot be sent in strict mode. `pointer` is a JSON Pointer fragment, `#` is the root. */
export interface SchemaIssue {
  readonly pointer: string;
  readonly message: string;
}

/** The caller's schema uses something OpenAI strict mode cannot express. Lists every problem found. */
export class UnsupportedSchemaError extends RennetError<"SCHEMA_UNSUPPORTED"> {
  override readonly name = "UnsupportedSchemaError";
  constructor(readonly issues: readonly SchemaIssue[]) {
    const shown = issues.slice(0, 5).map((issue) => `at ${issue.pointer}: ${issue.message}`);
    const more = issues.length > shown.length ? ` (+${issues.length - shown.length} more)` : "";
    super(
      "SCHEMA_UNSUPPORTED",
      `Output schema cannot be used in strict structured-output mode: ${shown.join("; ")}${more}. ` +
        "See docs/structured-output.md for what strict mode supports.",
    );
  }
}
