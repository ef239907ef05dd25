// Renders benchmark rows as a fixed-width text table. Pure.

const COLUMNS = [
  ["measurement", (row) => row.label, "left"],
  ["n", (row) => String(row.n), "right"],
  ["median ms", (row) => ms(row.median), "right"],
  ["p95 ms", (row) => ms(row.p95), "right"],
  ["min ms", (row) => ms(row.min), "right"],
  ["max ms", (row) => ms(row.max), "right"],
  ["× node spawn", (row) => times(row.vsSpawn), "right"],
  ["× fake turn", (row) => times(row.vsFakeTurn), "right"],
];

function ms(value) {
  return Number.isFinite(value) ? value.toFixed(1) : "–";
}

function times(value) {
  return value === null || value === undefined ? "–" : value.toFixed(2);
}

/** `rows`: {label, n, median, p95, min, max, vsSpawn, vsFakeTurn}. */
export function renderTable(rows) {
  const cells = rows.map((row) => COLUMNS.map(([, get]) => get(row)));
  const widths = COLUMNS.map(([title], index) =>
    Math.max(title.length, ...cells.map((line) => line[index].length)),
  );
  const format = (values) =>
    values
      .map((value, index) =>
        COLUMNS[index][2] === "left" ? value.padEnd(widths[index]) : value.padStart(widths[index]),
      )
      .join("  ");
  const header = format(COLUMNS.map(([title]) => title));
  return [header, "-".repeat(header.length), ...cells.map(format)].join("\n");
}
