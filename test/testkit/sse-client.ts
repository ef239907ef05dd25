/** A parsed server-sent event: the `event:` field and the JSON of the `data:` field. */
export interface ParsedEvent {
  event: string;
  data: Record<string, unknown>;
}

/** Parses a complete SSE body (`event: T\ndata: JSON\n\n` blocks). */
export function parseServerSentEvents(body: string): ParsedEvent[] {
  return body
    .split("\n\n")
    .filter((block) => block.trim().length > 0)
    .map((block) => {
      let event = "";
      let data = "";
      for (const line of block.split("\n")) {
        if (line.startsWith("event: ")) event = line.slice("event: ".length);
        else if (line.startsWith("data: ")) data += line.slice("data: ".length);
      }
      return { event, data: JSON.parse(data) as Record<string, unknown> };
    });
}

/** POSTs a JSON body to `${baseUrl}/responses`. */
export function postResponses(
  baseUrl: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${baseUrl}/responses`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", ...headers },
    body: JSON.stringify(body),
  });
}

/** POSTs and parses the whole SSE answer; fails on a non-200 status. */
export async function streamEvents(baseUrl: string, body: unknown): Promise<ParsedEvent[]> {
  const response = await postResponses(baseUrl, body);
  if (response.status !== 200)
    throw new Error(`expected 200, got ${response.status}: ${await response.text()}`);
  return parseServerSentEvents(await response.text());
}

/** A request body shaped like codex's first request of a turn. */
export function userTurnBody(prompt = "hello"): Record<string, unknown> {
  return {
    model: "mock-model",
    stream: true,
    input: [{ type: "message", role: "user", content: [{ type: "input_text", text: prompt }] }],
  };
}
