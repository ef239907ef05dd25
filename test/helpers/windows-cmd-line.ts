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
