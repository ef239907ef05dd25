/** Type-level tests of app tools: the schema types the handler's arguments; a call takes typed tools. */
import { describe, expectTypeOf, it } from "vitest";
import {
  createCodex,
  defineTool,
  type AppToolCallEnd,
  type AppToolCallStart,
  type AppToolContext,
  type HarnessEvent,
} from "../../src/index.js";

describe("defineTool types", () => {
  it("types the handler's arguments from an inline schema, and a call accepts the tool", () => {
    const tool = defineTool({
      name: "lookup",
      description: "d",
      inputSchema: {
        type: "object",
        properties: { id: { type: "string" }, limit: { type: "integer" } },
        required: ["id"],
        additionalProperties: false,
      },
      handler: (args, context) => {
        expectTypeOf(args.id).toEqualTypeOf<string>();
        expectTypeOf(args.limit).toEqualTypeOf<number | undefined>();
        expectTypeOf(context).toEqualTypeOf<AppToolContext>();
        return args.id;
      },
    });
    createCodex().runStreamed({ prompt: "x", tools: [tool] });
  });

  it("the app fields of tool events are typed", () => {
    const event = {} as HarnessEvent;
    if (event.type === "tool.completed" && event.app)
      expectTypeOf(event.app.durationMs).toEqualTypeOf<number>();
  });

  it('`tool: "app"` narrows a tool event to one whose app fields are there', () => {
    const event = {} as HarnessEvent;
    if (event.type === "tool.started" && event.tool === "app")
      expectTypeOf(event.app).toEqualTypeOf<AppToolCallStart>();
    if (event.type === "tool.completed" && event.tool === "app")
      expectTypeOf(event.app).toEqualTypeOf<AppToolCallEnd>();
    if (event.type === "tool.completed" && event.tool === "command")
      expectTypeOf(event.app).toEqualTypeOf<undefined>();
  });
});
