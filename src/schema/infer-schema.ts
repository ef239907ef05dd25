/**
 * The TypeScript type of a value valid against a JSON Schema written as a literal: `as const`, or inline in a
 * `utility()` call (whose schema parameter is a `const` type parameter). Covers what OpenAI strict mode
 * accepts: `type` (a name or a list, `"null"` included), `properties` with `required` (a property not listed
 * there may be absent), `items`, `enum`, `const` and `anyOf`. Anything else (`$ref`, a schema held in a
 * variable of a wider type) gives `unknown`. Types only: nothing here runs.
 */
export type InferSchema<S> = 0 extends 1 & S ? unknown : FromSchema<S>;

type FromSchema<S> = S extends { readonly const: infer C }
  ? Mutable<C>
  : S extends { readonly enum: readonly (infer E)[] }
    ? E
    : S extends { readonly anyOf: readonly (infer A)[] }
      ? FromSchema<A>
      : S extends { readonly type: infer T }
        ? T extends readonly (infer Name)[]
          ? ByName<Name, S>
          : ByName<T, S>
        : unknown;

type ByName<Name, S> = Name extends "string"
  ? string
  : Name extends "number" | "integer"
    ? number
    : Name extends "boolean"
      ? boolean
      : Name extends "null"
        ? null
        : Name extends "object"
          ? ObjectOf<S>
          : Name extends "array"
            ? ArrayOf<S>
            : unknown;

type ObjectOf<S> = S extends { readonly properties: infer P }
  ? Flatten<
      { -readonly [K in keyof P & RequiredOf<S>]: FromSchema<P[K]> } & {
        -readonly [K in Exclude<keyof P, RequiredOf<S>>]?: FromSchema<P[K]>;
      }
    >
  : Record<string, unknown>;

type RequiredOf<S> = S extends { readonly required: readonly (infer R)[] } ? R : never;

type ArrayOf<S> = S extends { readonly items: infer I } ? FromSchema<I>[] : unknown[];

type Mutable<T> = T extends object ? { -readonly [K in keyof T]: Mutable<T[K]> } : T;

/** Shows an intersection of object types as one object type. */
type Flatten<T> = { [K in keyof T]: T[K] } & {};
