import { PDFDocument, StandardFonts } from 'pdf-lib';

export interface ReportPanel {
  name: string;
  /** [test, result and flag as printed, units, reference interval] */
  rows: [string, string, string, string][];
}

export interface SimpleReport {
  lab: string;
  patient: { last: string; first: string; dob: string };
  specimen: string;
  collected: string;
  reported: string;
  panels: ReportPanel[];
}

/**
 * A one-page text PDF laid out like a Labcorp report (Test | Current Result and Flag | Units |
 * Reference Interval, panels as section headers): the demo's sample reports and the tests' small one.
 */
export async function simpleReportPdf(r: SimpleReport): Promise<Buffer> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const page = doc.addPage([612, 792]);
  let y = 740;
  const line = (cells: [string, number][], f = font, size = 10) => {
    for (const [text, x] of cells) page.drawText(text, { x, y, size, font: f });
    y -= 16;
  };
  line([[r.lab, 40]], bold, 14);
  line([[`Patient: ${r.patient.last.toUpperCase()}, ${r.patient.first.toUpperCase()}`, 40], [`DOB: ${r.patient.dob}`, 320]]);
  line([[`Specimen ID: ${r.specimen}`, 40], [`Date Collected: ${r.collected}`, 320]]);
  line([[`Date Reported: ${r.reported}`, 40]]);
  y -= 10;
  line([['Test', 40], ['Current Result and Flag', 220], ['Units', 370], ['Reference Interval', 450]], bold);
  for (const panel of r.panels) {
    line([[panel.name, 40]], bold);
    for (const [name, value, units, range] of panel.rows) line([[name, 40], [value, 220], [units, 370], [range, 450]]);
  }
  return Buffer.from(await doc.save());
}
