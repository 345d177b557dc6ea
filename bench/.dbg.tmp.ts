import { readFile } from 'node:fs/promises';
import { openPdf, pageText } from '../server/service/reader/pdfText';
import { buildRows } from '../server/service/reader/rows';
const doc = await openPdf(new Uint8Array(await readFile('.tmp/lab-report-corpus/' + process.argv[2])));
const page = await pageText(await doc.page(1), 1);
for (const r of buildRows(page!)) console.log(JSON.stringify(r.cells.map((c) => [Math.round(c.x), c.text])));
