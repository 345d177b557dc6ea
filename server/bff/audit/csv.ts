/**
 * One CSV cell (RFC 4180): quoted when it holds a comma, a quote or a line break. A cell that a
 * spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, carriage return) gets a leading `'`:
 * the export is opened by compliance staff in a spreadsheet, and record ids or resources come from
 * requests.
 */
export function csvCell(value: unknown): string {
  let text = value === null || value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export const csvLine = (cells: unknown[]) => `${cells.map(csvCell).join(',')}\r\n`;
