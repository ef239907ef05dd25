/**
 * The options every harness's client takes under the same name, and the hints that follow from them. A
 * harness's known-key lists spread these sets inside `satisfies KeySet<Pick<Options, keyof typeof SET>>`, so a
 * shared key its options type lacks does not compile, and add its own keys beside them.
 */

/** Keys of every harness's client options (`create…()`). */
export const SHARED_CLIENT_KEYS = {
  env: true,
  launcher: true,
  interruptGraceMs: true,
  reapOrphans: true,
} as const;

/** Keys of every harness's call options (`run()`, `runStreamed()`, …). */
export const SHARED_CALL_KEYS = {
  prompt: true,
  cwd: true,
  model: true,
  images: true,
  signal: true,
  timeouts: true,
  resume: true,
  mcp: true,
  trustProject: true,
  approvals: true,
  limits: true,
  tools: true,
} as const;

/** Names callers reach for that mean one of the shared call options: the option, by name. */
export const SHARED_ALIASES: readonly (readonly [string, string])[] = [
  ["workdir", "cwd"],
  ["workDir", "cwd"],
  ["directory", "cwd"],
  ["dir", "cwd"],
  ["timeout", "timeouts"],
  ["abortSignal", "signal"],
  ["image", "images"],
  ["input", "prompt"],
  ["message", "prompt"],
  ["text", "prompt"],
];

/**
 * Where each client key and call key goes, for a hint on a key passed to the wrong entry point: `client` names
 * the client factory (e.g. `createX`). A key of both lists is pointed at the calls. Pure.
 */
export function entryPointPlaces(
  client: string,
  clientKeys: readonly string[],
  callKeys: readonly string[],
): (readonly [string, string])[] {
  return [
    ...clientKeys.map((key) => [key, `\`${key}\` is an option of ${client}({ ${key} })`] as const),
    ...callKeys.map((key) => [key, `\`${key}\` is an option of each call (run, runStreamed, …)`] as const),
  ];
}

/**
 * Where the per-turn keys of a conversation go, for a hint on one given to `conversation()` (or to the client):
 * each call, and one conversation turn (`chat.run`). `client` names the client's variable (e.g. `codex`).
 */
export function conversationPlaces(client: string): (readonly [string, string])[] {
  const eachCall = "is an option of each call (run, runStreamed, …)";
  return [
    ["prompt", `\`prompt\` ${eachCall}; a conversation takes each turn's: chat.run(prompt)`],
    ["signal", `\`signal\` ${eachCall}, and of one conversation turn: chat.run(prompt, { signal })`],
    ["images", `\`images\` ${eachCall}, and of one conversation turn: chat.run(prompt, { images })`],
    [
      "resume",
      `\`resume\` ${eachCall}; a conversation continues a thread given as ${client}.conversation({ threadId })`,
    ],
  ];
}
