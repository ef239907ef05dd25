/** Parsers that replay what Windows does to a `cmd.exe /d /s /c "…"` command line, for tests of the escaping. */

/** What cmd.exe does to `^` escapes in one parsing pass (the test only feeds it fully escaped text). */
export function cmdUnescape(text: string): string {
  return text.replace(/\^(.)/g, "$1");
}

/** The MSVCRT command-line parser (what node.exe uses for its argv). */
export function parseMsvcrt(line: string): string[] {
  const args: string[] = [];
  let current = "";
  let inQuotes = false;
  let started = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === "\\") {
      let n = 0;
      while (line[i] === "\\") {
        n++;
        i++;
      }
      if (line[i] === '"') {
        current += "\\".repeat(Math.floor(n / 2));
        if (n % 2 === 1) current += '"';
        else inQuotes = !inQuotes;
      } else {
        current += "\\".repeat(n);
        i--;
      }
      started = true;
    } else if (ch === '"') {
      inQuotes = !inQuotes;
      started = true;
    } else if ((ch === " " || ch === "\t") && !inQuotes) {
      if (started) args.push(current);
      current = "";
      started = false;
    } else {
      current += ch;
      started = true;
    }
  }
  if (started) args.push(current);
  return args;
}

/**
 * cmd.exe's percent expansion of a command line (command-line context, before any `^` is read): `%name%`,
 * `%name:~start,length%` and `%name:find=replace%` expand when `name` is defined (any case); an undefined one
 * keeps its first `%` and the scan goes on from the character after it. `%%` is no escape here.
 */
export function cmdExpandPercent(line: string, env: Readonly<Record<string, string>>): string {
  let out = "";
  let i = 0;
  while (i < line.length) {
    if (line[i] !== "%") {
      out += line[i];
      i++;
      continue;
    }
    const close = line.indexOf("%", i + 1);
    const expanded = close < 0 ? null : expandReference(line.slice(i + 1, close), env);
    if (expanded === null) {
      out += "%";
      i++;
      continue;
    }
    out += expanded;
    i = close + 1;
  }
  return out;
}

function expandReference(body: string, env: Readonly<Record<string, string>>): string | null {
  const colon = body.indexOf(":");
  const name = (colon < 0 ? body : body.slice(0, colon)).toLowerCase();
  const key = Object.keys(env).find((candidate) => candidate.toLowerCase() === name);
  if (name === "" || key === undefined) return null;
  const value = env[key] ?? "";
  if (colon < 0) return value;
  const modifier = body.slice(colon + 1);
  const slice = /^~(-?\d*)(?:,(-?\d*))?$/.exec(modifier);
  if (slice) {
    const start = Number(slice[1] || 0);
    const from = start < 0 ? Math.max(0, value.length + start) : Math.min(start, value.length);
    if (slice[2] === undefined) return value.slice(from);
    const length = Number(slice[2] || 0);
    return length < 0 ? value.slice(from, value.length + length) : value.slice(from, from + length);
  }
  const equals = modifier.indexOf("=");
  if (equals <= 0) return null;
  const find = modifier.slice(0, equals);
  const replace = modifier.slice(equals + 1);
  if (find.startsWith("*")) {
    const at = value.toLowerCase().indexOf(find.slice(1).toLowerCase());
    return at < 0 ? value : replace + value.slice(at + find.length - 1);
  }
  return value.split(new RegExp(find.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "gi")).join(replace);
}
