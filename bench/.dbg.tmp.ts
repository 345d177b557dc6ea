import { readFile } from 'node:fs/promises';
import { openPdf, pageText } from '../server/service/reader/pdfText';
import { buildRows } from '../server/service/reader/rows';
const doc = await openPdf(new Uint8Array(await readFile('.tmp/lab-report-corpus/sero-text-1.pdf')));
const page = await pageText(await doc.page(1), 1);
for (const r of buildRows(page!)) if (/Titer|TEST|Test/.test(r.text)) console.log(JSON.stringify(r.cells.map((c) => [Math.round(c.x), c.text])));
