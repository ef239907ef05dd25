// Renders figures (see figure.js) as a fixed-width text table: figure / measured / baseline / ratio / goal /
// met?, then the errors and notes. Pure.

const UNIT_DIGITS = { ms: 1, MiB: 1, MB: 2, count: 0 };

function amount(value, unit) {
  if (value === null || value === undefined || !Number.isFinite(value)) return "–";
  const digits = UNIT_DIGITS[unit] ?? 2;
  return unit === "count" ? value.toFixed(digits) : `${value.toFixed(digits)} ${unit}`;
}

function comparison(figure) {
  if (figure.baseline === null || figure.baseline === undefined) return "–";
  if (figure.goal?.compare === "delta") {
    if (!Number.isFinite(figure.delta)) return "–";
    return `${figure.delta >= 0 ? "+" : "−"}${amount(Math.abs(figure.delta), figure.unit)}`;
  }
  return figure.ratio === null || !Number.isFinite(figure.ratio) ? "–" : `×${figure.ratio.toFixed(2)}`;
}

function goalText(figure) {
  const goal = figure.goal;
  if (!goal) return "–";
  if (goal.compare === "ratio") return `≤ ×${goal.max.toFixed(2)}`;
  if (goal.compare === "delta") return `≤ +${amount(goal.max, figure.unit ?? "ms")}`;
  return `≤ ${amount(goal.max, figure.unit ?? "count")}`;
}

function metText(figure) {
  if (figure.error) return "ERROR";
  if (figure.met === null || figure.met === undefined) return "–";
  return figure.met ? "yes" : "NO";
}

const COLUMNS = [
  ["figure", (f) => f.label, "left"],
  ["measured", (f) => (f.error ? "error" : amount(f.value, f.unit)), "right"],
  ["baseline", (f) => amount(f.baseline, f.unit), "right"],
  ["ratio", comparison, "right"],
  ["goal", goalText, "right"],
  ["met?", metText, "left"],
  ["n", (f) => (f.stats ? String(f.stats.n) : "–"), "right"],
];

/** The table, followed by one line per baseline description, error and note. */
export function renderTable(figures) {
  const cells = figures.map((figure) => COLUMNS.map(([, get]) => get(figure)));
  const widths = COLUMNS.map(([title], index) =>
    Math.max(title.length, ...cells.map((line) => line[index].length)),
  );
  const format = (values) =>
    values
      .map((value, index) =>
        COLUMNS[index][2] === "left" ? value.padEnd(widths[index]) : value.padStart(widths[index]),
      )
      .join("  ")
      .trimEnd();
  const header = format(COLUMNS.map(([title]) => title));
  const lines = [header, "-".repeat(header.length), ...cells.map(format)];
  // one remark per group of figures (the key up to its first dot) that share it
  const remarks = new Map();
  for (const figure of figures) {
    const parts = figure.error
      ? [`ERROR ${figure.error}`]
      : [figure.baselineLabel && `baseline = ${figure.baselineLabel}`, figure.notes].filter(Boolean);
    if (parts.length === 0) continue;
    const text = parts.join("; ");
    const id = `${figure.key.split(".")[0]}\u0000${text}`;
    const seen = remarks.get(id);
    if (seen) seen.keys.push(figure.key);
    else remarks.set(id, { keys: [figure.key], text });
  }
  const remarkLines = [...remarks.values()].map(({ keys, text }) =>
    keys.length === 1 ? `${keys[0]}: ${text}` : `${keys[0].split(".")[0]}.*: ${text}`,
  );
  return [...lines, "", ...remarkLines].join("\n");
}
