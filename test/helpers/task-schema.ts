import type { JsonSchemaObject } from "../../src/schema/json-schema.js";

/** The schema the utility tests ask for: a title, an optional note, tasks with an optional owner. */
export const TASK_SCHEMA: JsonSchemaObject = {
  type: "object",
  properties: {
    title: { type: "string" },
    note: { type: "string" },
    tasks: {
      type: "array",
      items: {
        type: "object",
        properties: { text: { type: "string" }, owner: { type: "string" } },
        required: ["text"],
      },
    },
  },
  required: ["title", "tasks"],
};

/** The strict form of {@link TASK_SCHEMA}, written out: every property required, optional ones nullable. */
export const TASK_SCHEMA_STRICT = {
  type: "object",
  properties: {
    title: { type: "string" },
    note: { type: ["string", "null"] },
    tasks: {
      type: "array",
      items: {
        type: "object",
        properties: { text: { type: "string" }, owner: { type: ["string", "null"] } },
        required: ["text", "owner"],
        additionalProperties: false,
      },
    },
  },
  required: ["title", "note", "tasks"],
  additionalProperties: false,
};
