/** The JSON value of each non-blank line of `text`; a line that is not JSON becomes `{type: "<invalid>", line}`. */
export function jsonLines(text) {
  return text
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => {
      try {
        return JSON.parse(l);
      } catch {
        return { type: "<invalid>", line: l.slice(0, 200) };
      }
    });
}
