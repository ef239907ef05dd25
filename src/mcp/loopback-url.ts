const IPV4_LOOPBACK =
  /^127\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;

/** Whether any UTF-16 code unit of `text` passes `test`. Pure. */
export function hasCodeUnit(text: string, test: (code: number) => boolean): boolean {
  for (let i = 0; i < text.length; i++) if (test(text.charCodeAt(i))) return true;
  return false;
}

/**
 * `text` with the userinfo of every `scheme://user:password@` in it shown as `***@`, for error messages: a
 * refused URL may carry a password, and a caller logs what it is told. Pure.
 */
export function withoutUserinfo(text: string): string {
  return text.replace(/([A-Za-z][A-Za-z0-9+.-]*:\/\/)[^/?#]*@/g, "$1***@");
}

/** Result of {@link checkLoopbackUrl}. */
export type LoopbackUrlCheck =
  { ok: true } | { ok: false; code: "MCP_URL_INVALID" | "MCP_URL_NOT_LOOPBACK"; reason: string };

/**
 * Whether `url` is an `http(s)://` URL that can only reach this machine. Pure. The host is read from the raw
 * text and must also be what a WHATWG parser (Node's and codex's `url` crate alike) sees, so that no spelling
 * can mean one host here and another there: accepted hosts are a dotted-decimal `127.a.b.c`, `localhost` (any
 * case) and `[::1]`; userinfo, backslashes, whitespace and control characters are refused outright.
 */
export function checkLoopbackUrl(url: string): LoopbackUrlCheck {
  // every code unit from U+0000 to U+0020 (space) and DEL; a WHATWG parser silently drops some of them
  if (hasCodeUnit(url, (c) => c <= 0x20 || c === 0x7f || c === 0x5c)) {
    return {
      ok: false,
      code: "MCP_URL_INVALID",
      reason: "it contains whitespace, a control character or a backslash",
    };
  }
  const match = /^(https?):\/\/([^/?#]*)(?:[/?#].*)?$/i.exec(url);
  if (!match)
    return { ok: false, code: "MCP_URL_INVALID", reason: "it is not an absolute http:// or https:// URL" };
  const authority = match[2] ?? "";
  if (authority.includes("@")) {
    return {
      ok: false,
      code: "MCP_URL_NOT_LOOPBACK",
      reason: "it carries userinfo (user@host); put credentials in a header or bearerTokenEnvVar",
    };
  }
  const hostPort = /^(\[[^\]]*\]|[^:[\]]*)(?::(\d{1,5}))?$/.exec(authority);
  if (!hostPort)
    return { ok: false, code: "MCP_URL_INVALID", reason: `its authority "${authority}" is not host[:port]` };
  const rawHost = (hostPort[1] ?? "").toLowerCase();
  const port = hostPort[2];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65535)) {
    return { ok: false, code: "MCP_URL_INVALID", reason: `its port ${port} is outside 1-65535` };
  }
  if (rawHost !== "localhost" && rawHost !== "[::1]" && !IPV4_LOOPBACK.test(rawHost)) {
    return {
      ok: false,
      code: "MCP_URL_NOT_LOOPBACK",
      reason: `its host "${rawHost}" is not 127.x.y.z (dotted decimal), localhost or [::1]`,
    };
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, code: "MCP_URL_INVALID", reason: "it does not parse as a URL" };
  }
  if (parsed.hostname !== rawHost || parsed.username !== "" || parsed.password !== "") {
    return {
      ok: false,
      code: "MCP_URL_NOT_LOOPBACK",
      reason: `a URL parser reads its host as "${parsed.hostname}"`,
    };
  }
  return { ok: true };
}
