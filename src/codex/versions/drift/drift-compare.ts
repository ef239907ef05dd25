/**
 * The drift comparison: every {@link DRIFT_EXPECTATIONS} row checked against a schema bundle, plus the server
 * notifications the bundle defines that Rennet does not know (they will reach callers as `passthrough`).
 * Pure.
 */
import { KNOWN_NOTIFICATION_METHODS } from "../../protocol/known-methods.js";
import {
  DRIFT_EXPECTATIONS,
  type DriftExpectation,
  type MethodUnion,
  type SchemaPath,
} from "./drift-expectations.js";
import { definition, deref, methodEntries, property, stringValues, variantTags } from "./schema-bundle.js";

/** One checked expectation. */
export interface DriftRow {
  kind: DriftExpectation["kind"];
  /** What was checked, e.g. `thread/start.sandbox = "danger-full-access"`. */
  subject: string;
  /** `changed`: the field exists but no longer admits the value (or changed shape). */
  status: "ok" | "missing" | "changed";
  optional: boolean;
  /** For `changed`: what the schema admits now. */
  detail?: string;
}

/** The comparison's result. JSON-serializable. */
export interface DriftComparison {
  /** No non-optional row is missing or changed. */
  ok: boolean;
  rows: DriftRow[];
  /** Server notifications in the schema that Rennet does not know: they pass through as `unknown`. */
  newNotifications: string[];
}

type Unions = Record<MethodUnion, Map<string, unknown>>;

function subjectOf(expectation: DriftExpectation): string {
  switch (expectation.kind) {
    case "method":
      return expectation.union === "ServerRequest"
        ? `server request ${expectation.method}`
        : expectation.method;
    case "field":
      return `${expectation.method}.${expectation.path.join(".")}`;
    case "value":
      return `${expectation.method}.${expectation.path.join(".")} = ${JSON.stringify(expectation.value)}`;
    case "typeField":
      return `${expectation.type}.${expectation.field}`;
  }
}

/** Walks `path` from a method's params; undefined when a step is absent. */
function walk(
  bundle: unknown,
  unions: Unions,
  union: MethodUnion,
  method: string,
  path: SchemaPath,
): unknown {
  const entries = unions[union];
  if (!entries.has(method)) return undefined;
  let node = deref(bundle, entries.get(method));
  for (const step of path) {
    if (step === "[]") {
      node = deref(bundle, node?.items);
      if (!node) return undefined;
      continue;
    }
    const next = property(bundle, node, step);
    if (next === undefined) return undefined;
    node = next;
  }
  return node;
}

function check(
  bundle: unknown,
  unions: Unions,
  expectation: DriftExpectation,
): Omit<DriftRow, "kind" | "subject" | "optional"> {
  switch (expectation.kind) {
    case "method":
      return { status: unions[expectation.union].has(expectation.method) ? "ok" : "missing" };
    case "field":
      return {
        status:
          walk(bundle, unions, expectation.union, expectation.method, expectation.path) === undefined
            ? "missing"
            : "ok",
      };
    case "typeField": {
      const type = definition(bundle, expectation.type);
      return { status: type && property(bundle, type, expectation.field) !== undefined ? "ok" : "missing" };
    }
    case "value": {
      const node = walk(bundle, unions, expectation.union, expectation.method, expectation.path);
      if (node === undefined) return { status: "missing" };
      if (expectation.tagged) {
        const tags = variantTags(bundle, node);
        return tags.includes(expectation.value)
          ? { status: "ok" }
          : { status: "changed", detail: `variants: ${tags.join(", ") || "(none)"}` };
      }
      const admitted = stringValues(bundle, node);
      if (admitted.values.includes(expectation.value) || admitted.open) return { status: "ok" };
      return { status: "changed", detail: `values: ${admitted.values.join(", ") || "(none)"}` };
    }
  }
}

/** Compares a parsed schema bundle with what Rennet sends and relies on. */
export function compareSchema(
  bundle: unknown,
  expectations: readonly DriftExpectation[] = DRIFT_EXPECTATIONS,
): DriftComparison {
  const unions: Unions = {
    ClientRequest: methodEntries(bundle, "ClientRequest"),
    ServerNotification: methodEntries(bundle, "ServerNotification"),
    ServerRequest: methodEntries(bundle, "ServerRequest"),
  };
  const rows = expectations.map((expectation): DriftRow => ({
    kind: expectation.kind,
    subject: subjectOf(expectation),
    optional: expectation.optional === true,
    ...check(bundle, unions, expectation),
  }));
  const newNotifications = [...unions.ServerNotification.keys()]
    .filter((method) => !KNOWN_NOTIFICATION_METHODS.has(method) && !method.startsWith("codex/event/"))
    .sort();
  return { ok: rows.every((row) => row.optional || row.status === "ok"), rows, newNotifications };
}
