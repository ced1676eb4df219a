/**
 * The lines of a CSV file as a spreadsheet saved it (issue 26): cells split by the separator the
 * header line uses most (`,` `;` tab; an Excel `sep=;` first line wins), the byte order mark
 * dropped, quoted cells as RFC 4180 (papaparse: runs in the pure core and in the browser), blank
 * lines left out. Each row keeps the line it starts on (1 = the first line after `sep=`), for
 * problems a person can find; a row papaparse cannot read is a problem of its line.
 */
import Papa from "papaparse";
import type { ImportProblem } from "./record-set.ts";

export type Cells = readonly string[];
export interface Line {
  readonly cells: Cells;
  readonly line: number;
}

/** The file's rows with the line each starts on, and the problems of reading them. */
export function parsedLines(text: string, problems: ImportProblem[]): Line[] {
  let body = text.startsWith("\uFEFF") ? text.slice(1) : text;
  // Excel's "sep=;" line names the separator; the header is line 1 after it, as Excel shows it.
  const sep = /^sep=(.)\r?\n/i.exec(body);
  let delimiter: string | undefined = sep?.[1];
  if (sep) body = body.slice(sep[0].length);
  delimiter ??= detectedDelimiter(body);
  const lines: Line[] = [];
  let cursor = 0;
  let line = 1;
  Papa.parse<string[]>(body, {
    delimiter,
    step: (result) => {
      const start = cursor;
      cursor = result.meta.cursor;
      const at = line;
      const linebreak = result.meta.linebreak || "\n";
      line += body.slice(start, cursor).split(linebreak).length - 1;
      for (const e of result.errors) {
        problems.push({ line: at, message: `the line cannot be read: ${e.message}` });
      }
      const cells = result.data;
      if (cells.some((c) => c.trim() !== "")) lines.push({ cells, line: at });
    },
  });
  return lines;
}

/** The separator that splits the header line most often, outside quotes: `;`, tab, else `,`. */
function detectedDelimiter(body: string): string {
  const counts = new Map<string, number>([
    [",", 0],
    [";", 0],
    ["\t", 0],
  ]);
  let quoted = false;
  for (const ch of body) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && (ch === "\n" || ch === "\r")) break;
    else if (!quoted && counts.has(ch)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  let best = ",";
  for (const [d, n] of counts) if (n > (counts.get(best) ?? 0)) best = d;
  return best;
}
