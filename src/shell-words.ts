/**
 * Splits a command line into words the way a POSIX shell would for display and policy checks: single and
 * double quotes, backslash escapes; no expansion. A `sh -c SCRIPT` (or `bash -lc`, `zsh -c`, …) wrapper is
 * removed, so `/bin/bash -c 'git status'` gives `["git", "status"]`. Pure; never throws (an unterminated quote
 * ends at the end of the line).
 */
export function commandWords(command: string): string[] {
  const words = splitWords(command);
  const [shell, flag, script, ...rest] = words;
  if (
    shell !== undefined &&
    SHELLS.test(shell) &&
    flag !== undefined &&
    /^-[a-z]*c$/.test(flag) &&
    script !== undefined &&
    rest.length === 0
  )
    return splitWords(script);
  return words;
}

const SHELLS = /^(?:.*\/)?(?:ba|z|da|k)?sh$/;

/** The words of `line`: quotes removed, escapes applied. Pure. */
export function splitWords(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i] as string;
    if (quote === "'") {
      if (c === "'") quote = null;
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === "\\" && i + 1 < line.length && '"\\$`'.includes(line[i + 1] as string))
        word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === "\\" && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}
