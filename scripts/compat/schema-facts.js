// Reads version-tolerance facts out of the bundle `codex app-server generate-json-schema` writes
// (`codex_app_server_protocol.schemas.json`). Pure: takes the parsed bundle, returns plain JSON.
//
// Types live in `definitions` (v1 and shared) and `definitions.v2` (the v2 protocol); `$ref`s are JSON pointers
// such as `#/definitions/v2/ThreadStartParams`. Where a name exists in both, the v2 one is what the v2 methods use.

/** Resolves a local `$ref` pointer inside the bundle; returns null when it does not resolve. */
function pointer(bundle, ref) {
  if (typeof ref !== "string" || !ref.startsWith("#/")) return null;
  let node = bundle;
  for (const raw of ref.slice(2).split("/")) {
    const part = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, part)) return null;
    node = node[part];
  }
  return node;
}

/** Follows `$ref` and single-member `allOf` chains to the node that holds the shape. */
function deref(bundle, node, depth = 0) {
  if (node === null || typeof node !== "object" || depth > 20) return node;
  if (typeof node.$ref === "string") return deref(bundle, pointer(bundle, node.$ref), depth + 1);
  if (Array.isArray(node.allOf) && node.allOf.length === 1) return deref(bundle, node.allOf[0], depth + 1);
  return node;
}

/** The non-null members of a union (`oneOf`/`anyOf`), dereferenced; a plain node is its own only member. */
function members(bundle, node) {
  const shape = deref(bundle, node);
  if (shape === null || typeof shape !== "object") return [];
  const list = shape.oneOf ?? shape.anyOf;
  if (!Array.isArray(list)) return [shape];
  return list
    .map((m) => deref(bundle, m))
    .filter((m) => m && m.type !== "null")
    .flatMap((m) => ((m.oneOf || m.anyOf) && !m.properties ? members(bundle, m) : [m]));
}

/** String values a node admits: enum members, `const`s and tagged-object `type`s; `"<string>"` for an open string. */
function stringValues(bundle, node) {
  const out = [];
  for (const m of members(bundle, node)) {
    if (Array.isArray(m.enum)) out.push(...m.enum.filter((v) => typeof v === "string"));
    else if (typeof m.const === "string") out.push(m.const);
    else if (m.type === "string" || (Array.isArray(m.type) && m.type.includes("string")))
      out.push("<string>");
  }
  return [...new Set(out)];
}

/** The `type` tag of each variant of a tagged union (e.g. SandboxPolicy, UserInput, ThreadItem). */
function variantTags(bundle, node, tag = "type") {
  const out = [];
  for (const m of members(bundle, node)) {
    const prop = deref(bundle, m.properties?.[tag]);
    if (Array.isArray(prop?.enum)) out.push(...prop.enum);
    else if (typeof prop?.const === "string") out.push(prop.const);
    else if (Array.isArray(m.enum)) out.push(...m.enum);
    else if (m.type === "object" && m.properties && !prop) {
      // externally tagged: {"variantName": {...}}
      out.push(...Object.keys(m.properties).map((k) => `{${k}}`));
    }
  }
  return [...new Set(out)];
}

function methodEntries(bundle, unionName) {
  const union = pointer(bundle, `#/definitions/${unionName}`);
  const out = new Map();
  for (const m of members(bundle, union)) {
    const method = deref(bundle, m.properties?.method);
    const name = method?.enum?.[0] ?? method?.const;
    if (typeof name === "string") out.set(name, m.properties?.params ?? null);
  }
  return out;
}

function def(bundle, name) {
  return pointer(bundle, `#/definitions/v2/${name}`) ?? pointer(bundle, `#/definitions/${name}`) ?? null;
}

function propertyNames(bundle, node) {
  const shape = deref(bundle, node);
  return shape?.properties ? Object.keys(shape.properties).sort() : null;
}

/** The string values the property `key` of `node` takes; null where `node` has no such property. */
function valuesOf(bundle, node, key) {
  const property = node.properties?.[key];
  return property ? stringValues(bundle, property) : null;
}

/** The field names of `node` and the values of its property `key`; null without `node`. */
function fieldsWithValues(bundle, node, key) {
  return node ? { fields: propertyNames(bundle, node), [key]: valuesOf(bundle, node, key) } : null;
}

function paramsOf(bundle, entries, method) {
  return entries.has(method) ? deref(bundle, entries.get(method)) : null;
}

const WATCHED_METHODS = [
  "thread/start",
  "thread/resume",
  "turn/start",
  "turn/interrupt",
  "config/read",
  "mcpServerStatus/list",
  "mcpServers/list",
  "experimentalFeature/list",
  "model/list",
];

const WATCHED_NOTIFICATIONS = [
  "thread/status/changed",
  "turn/plan/updated",
  "turn/diff/updated",
  "account/rateLimits/updated",
  "thread/tokenUsage/updated",
  "mcpServer/startupStatus/updated",
  "serverRequest/resolved",
  "warning",
  "configWarning",
  "item/reasoning/summaryPartAdded",
  "sessionConfigured",
];

/** The facts; every field is null when the schema has no such type. */
export function schemaFacts(bundle) {
  const requests = methodEntries(bundle, "ClientRequest");
  const notifications = methodEntries(bundle, "ServerNotification");
  const serverRequests = methodEntries(bundle, "ServerRequest");
  const threadStart = paramsOf(bundle, requests, "thread/start");
  const turnStart = paramsOf(bundle, requests, "turn/start");
  const threadResume = paramsOf(bundle, requests, "thread/resume");
  const configRead = paramsOf(bundle, requests, "config/read");
  const statusList = paramsOf(bundle, requests, "mcpServerStatus/list");
  const userInput = turnStart?.properties?.input ? deref(bundle, turnStart.properties.input).items : null;
  const mcpStatus = def(bundle, "McpServerStatus");
  const startupNotification = notifications.has("mcpServer/startupStatus/updated")
    ? deref(bundle, notifications.get("mcpServer/startupStatus/updated"))
    : null;
  const init = pointer(bundle, "#/definitions/InitializeResponse") ?? def(bundle, "InitializeResponse");
  const itemStarted = notifications.has("item/started")
    ? deref(bundle, notifications.get("item/started"))
    : null;
  const eventMsg = pointer(bundle, "#/definitions/EventMsg");
  return {
    methods: Object.fromEntries(WATCHED_METHODS.map((m) => [m, requests.has(m)])),
    notifications: Object.fromEntries(WATCHED_NOTIFICATIONS.map((m) => [m, notifications.has(m)])),
    counts: {
      clientRequests: requests.size,
      serverNotifications: notifications.size,
      serverRequests: serverRequests.size,
    },
    serverRequests: [...serverRequests.keys()],
    initializeResponse: propertyNames(bundle, init),
    threadStart: threadStart
      ? {
          params: propertyNames(bundle, threadStart),
          sandbox: stringValues(bundle, threadStart.properties?.sandbox),
          approvalPolicy: stringValues(bundle, threadStart.properties?.approvalPolicy),
        }
      : null,
    threadResume: threadResume ? { params: propertyNames(bundle, threadResume) } : null,
    turnStart: turnStart
      ? {
          params: propertyNames(bundle, turnStart),
          sandboxPolicy: variantTags(bundle, turnStart.properties?.sandboxPolicy),
          summary: valuesOf(bundle, turnStart, "summary"),
          effort: valuesOf(bundle, turnStart, "effort"),
          userInput: userInput ? variantTags(bundle, userInput) : null,
        }
      : null,
    configRead: configRead ? { params: propertyNames(bundle, configRead) } : null,
    mcpServerStatusList: statusList ? { params: propertyNames(bundle, statusList) } : null,
    mcpServerStatus: fieldsWithValues(bundle, mcpStatus, "runtimeStatus"),
    mcpStartupNotification: fieldsWithValues(bundle, startupNotification, "status"),
    threadItemTypes: itemStarted?.properties?.item ? variantTags(bundle, itemStarted.properties.item) : null,
    legacyEventMsg: eventMsg
      ? { variants: members(bundle, eventMsg).length, types: variantTags(bundle, eventMsg) }
      : null,
    initializeCapabilities: propertyNames(bundle, def(bundle, "InitializeCapabilities")),
  };
}
