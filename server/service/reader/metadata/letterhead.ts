import type { Cell, Row } from '../types';
import { LAB_WORDS, labValue } from './values';

/**
 * The lab's name and address from where labs print them without a label: the letterhead (the
 * first lines of page 1) and footers ("Performed at: Lakeside Labs, 123 Main St, Springfield, IL
 * 62701  CLIA 14D0123456"). A patient's own address is printed the same way, so an address is
 * taken only beside something that marks it as the lab's: the lab's name above it or on its line,
 * a CLIA number, a "performed at" or a lab director.
 */

const PATIENT_BLOCK = /\b(?:patient(?: name)?|pt name|name|dob|date of birth)\s*:/i;
/** "Testing performed by …": a sentence naming the lab, read as a label (labels.ts), not a letterhead. */
const PERFORMED = /^(?:testing |tests )?perform(?:ed|ing)\b/i;

/**
 * A department's heading beside the lab's name ("CLINICAL BIOCHEMISTRY & HAEMATOLOGY", "Department
 * of Pathology"): it names a discipline, not the laboratory that reports.
 */
const DEPARTMENT =
  /^(?:(?:department|dept\.?|division|section)\s+of\s+)?(?:(?:clinical|chemical|biochemistry|chemistry|ha?ematology|microbiology|immunology|serology|pathology|virology|endocrinology|laboratory|medicine|sciences?|blood|and|&|,)\s*)+$/i;

/** How many lines of page 1 the letterhead may take. */
const LETTERHEAD_ROWS = 8;

/** No "Laboratory:" label: the letterhead's lab, i.e. the first line on page 1 that names a laboratory. */
export function letterheadLab(rows: Row[]): { name: string; row: number; cell: Cell } | undefined {
  for (let i = 0; i < rows.length && i < LETTERHEAD_ROWS; i++) {
    const row = rows[i]!;
    if (row.page !== rows[0]!.page) break;
    // The letterhead ends with the patient block (which may share its first line with it).
    if (i > 0 && PATIENT_BLOCK.test(rows[i - 1]!.text)) break;
    for (const cell of row.cells) {
      if (!LAB_WORDS.test(cell.text) || /\d|:/.test(cell.text) || cell.text.split(' ').length > 10 || PERFORMED.test(cell.text)) continue;
      if (DEPARTMENT.test(cell.text.trim())) continue;
      const name = labValue(cell.text);
      if (name && name === cell.text.trim().replace(/[,;.\s]+$/, '')) return { name, row: i, cell };
    }
  }
  return logoLine(rows);
}

/** A CLIA number, with or without its label. */
const CLIA_MARK = /\bCLIA\b|(?<![A-Z0-9])\d{2}D\d{7}(?![A-Z0-9])/;

/**
 * The lab named at the head of its own footer line, without a label: "Acme Clinical Labs · 100 Main
 * Street, Springfield, IL 62701 · CLIA #14D0123456". Only a name with a laboratory's words counts,
 * on a line that carries a CLIA number (which is the lab's own).
 */
export function cliaLineLab(rows: Row[]): { name: string; row: number; cell: Cell } | undefined {
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i]!;
    if (!CLIA_MARK.test(row.text)) continue;
    for (const cell of row.cells) {
      const head = cell.text.split(/\s+[·•|]\s+|\s{2,}/)[0]!.trim();
      if (/:|\bperform(?:ed|ing)\b/i.test(head) || CLIA_MARK.test(head) || !LAB_WORDS.test(head)) continue;
      const name = labValue(head, true);
      if (name && !DEPARTMENT.test(name)) return { name, row: i, cell };
    }
  }
  return undefined;
}

/**
 * A letterhead whose name says nothing of a lab ("Sonora Quest", "ARUP"): one of the first three
 * lines, printed larger than the text under it, with the lab's address right below it.
 */
function logoLine(rows: Row[]): { name: string; row: number; cell: Cell } | undefined {
  const body = rows.filter((r) => r.page === rows[0]?.page).map((r) => r.height).sort((a, b) => a - b);
  const typical = body[body.length >> 1] ?? 0;
  for (let i = 0; i < Math.min(3, rows.length); i++) {
    const row = rows[i]!;
    if (row.page !== rows[0]!.page || row.height < 1.2 * typical) continue;
    for (const cell of row.cells) {
      if (/\d|:/.test(cell.text) || cell.text.split(' ').length > 8) continue;
      const name = labValue(cell.text);
      if (!name) continue;
      const below = candidates(rows.slice(i + 1, i + 4)).some((c) => overlaps(c.cell, cell));
      if (below) return { name, row: i, cell };
    }
  }
  return undefined;
}

const STATES =
  'AL|AK|AZ|AR|CA|CO|CT|DE|DC|FL|GA|HI|ID|IL|IN|IA|KS|KY|LA|ME|MD|MA|MI|MN|MS|MO|MT|NE|NV|NH|NJ|NM|NY|NC|ND|OH|OK|OR|PA|PR|RI|SC|SD|TN|TX|UT|VT|VA|WA|WV|WI|WY';

const PROVINCES = 'AB|BC|MB|NB|NL|NS|NT|NU|ON|PE|QC|SK|YT';
// Australian states take a four-digit postcode (Parkville VIC 3052), in the pattern below.

/**
 * The end of an address: "City, ST 12345" (or "CITY ST 12345-6789"), a Canadian "Toronto, ON M5G
 * 1X5", a British "Leeds LS1 2TW" or an Australian "Parkville VIC 3052".
 */
const CITY_STATE_ZIP = String.raw`\p{L}[\p{L}.' -]*,?\s+(?:(?:${STATES})\.?,?\s+\d{5}(?:-\d{4})?(?!\d)|(?:${PROVINCES}),?\s+[A-Z]\d[A-Z]\s?\d[A-Z]\d(?![A-Za-z0-9])|[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}(?![A-Za-z0-9])|(?:NSW|VIC|QLD|SA|WA|TAS|ACT|NT)\s+\d{4}(?!\d))`;

/** A one-line address: street number, street (and suite), city, state, ZIP. */
const ONE_LINE = new RegExp(String.raw`(?<![\d/.:-])\d{1,6}[A-Z]?(?:-\d{1,4})?\s+\p{L}[\p{L}\p{N}.'#&,/•·| -]{2,80}?[,•·| ]\s*${CITY_STATE_ZIP}`, 'u');
const STREET_START =
  /(?<![\p{L}\p{N}])\d{1,6}[A-Z]?\s+[\p{L}.' ]*\b(?:st|street|ave|avenue|rd|road|blvd|boulevard|dr|drive|way|ln|lane|pkwy|parkway|ct|court|pl|place|hwy|highway|cir|circle|ter|terrace|plaza|sq|square|park|loop|trail|pike|row)\b/iu;
const CITY_LINE = new RegExp(String.raw`^${CITY_STATE_ZIP}`, 'u');
/** A German, Austrian or Swiss address: the street, then its number, then the postcode and town ("Kaiserstraße 12 · 60311 Frankfurt am Main"). */
const EU_ONE_LINE =
  /(?<![\p{L}\p{N}])\p{Lu}[\p{L}.'-]*(?:\s[\p{L}.'-]+){0,2}?(?:stra(?:ß|ss|B|R)e|str\.|weg|platz|allee|ring|gasse|damm|ufer|chaussee|markt|graben)\s+\d{1,4}[a-z]?\s*[,·•|–-]\s*(?:[ADCH]-)?\d{4,5}\s+\p{Lu}[\p{L}.'-]*(?:\s(?:am|an|der|im|bei|ob|\p{Lu}[\p{L}.'-]*)){0,3}/u;
/**
 * A Latin American, Spanish, Portuguese, French or Italian address: the street's kind first
 * ("Av.", "Calle", "Rua", "Via"), its number, perhaps the neighbourhood ("Col. Roma"), then the
 * postcode and town, and perhaps the state ("44130 Guadalajara, Jal."); a phone after it is not part of it.
 */
const STREET_FIRST_ONE_LINE = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(?:Av\.|Avda\.|Avenida|Calle|C/|Calz\.|Calzada|Blvd\.|Bulevar|Boulevard|Paseo|Carrera|Cra\.|Prol\.|Prolongación|Periférico|Circuito|Carretera|Rua|R\.|Travessa|Via|Viale|Corso|Piazza|Rue|Avenue|Plaza|Pza\.)\s+` +
    String.raw`[\p{L}\p{N}.'° -]{2,60}?\s(?:No\.?\s*|#\s*)?\d{1,5}[A-Za-z]?(?:[ -](?:int\.?|local|piso|depto\.?)\s*[\p{L}\p{N}-]+)?` +
    String.raw`(?:,\s*(?:Col\.|Colonia|Fracc\.|Fraccionamiento|Barrio|Bairro|Urb\.)\s+[\p{L}\p{N}.' -]{2,50}?)?` +
    String.raw`,\s*(?:C\.?\s?P\.?\s*)?\d{4,5}(?:-\d{3})?\s+\p{Lu}[\p{L}.' -]*?(?:,\s*\p{Lu}[\p{L}.]*(?:\s\p{Lu}[\p{L}.]*)?)?(?=\s*(?:[·•|]|$|\s(?:Tel|Tél|Fax)\b))`,
  'u',
);
/** An Indian address: a plot or house number first, the state and the six-digit PIN code last ("Plot No. 14, Sector 44, Gurugram, Haryana 122003"). */
const PIN_ONE_LINE = /(?<![\p{L}\p{N}])(?:Plot|House|Flat|Shop|Door|Building|Bldg\.?|No\.|#|(?:\d{1,2}(?:st|nd|rd|th)|Ground|First|Second|Third)\s+Floor)\s*[\p{L}\p{N}.,'#/ -]{2,100}?,\s*\p{Lu}[\p{L}]+(?:\s\p{Lu}[\p{L}]+)?\s*[-,]?\s*\d{3}\s?\d{3}(?![\d-])/u;
/** A post-office box with a town after it: "P.O. Box 50512, Dubai", "PO Box 1234, Riyadh 11564". */
const PO_BOX = /(?<![\p{L}])(?:P\.?\s?O\.?\s?Box|Post Office Box|Apartado(?: Postal)?|Postfach|Caixa Postal)\s+\d{2,7}\s*,\s*\p{Lu}/iu;
const STREET_LINE = /^\d{1,6}[A-Z]?(?:-\d{1,4})?\s+\p{L}[\p{L}\p{N}.'#&,/ -]{2,60}$/u;
const SUITE_LINE = /^(?:suite|ste\.?|unit|floor|fl\.?|bldg\.?|building|room|#)\s*[\p{L}\p{N}-]+$/iu;

/** Text on a line that marks what is near it as the lab's. */
const LAB_MARK = /\bCLIA\b|performed (?:at|by)|performing|lab(?:oratory)? director|medical director|\blaborator(?:y|ies)\s*:/i;

interface Candidate {
  address: string;
  row: number;
  cell: Cell;
}

function candidates(rows: Row[]): Candidate[] {
  const out: Candidate[] = [];
  rows.forEach((row, i) => {
    for (const cell of row.cells) {
      const eu = EU_ONE_LINE.exec(cell.text);
      if (eu) {
        // OCR reads the ß of "straße" as a B or an R.
        // A dash between the street and the postcode is a separator, as a dot is.
        out.push({ address: tidy(eu[0].replace(/stra[BR]e\b/, 'straße').replace(/\s+[–-]\s+(?=(?:[ADCH]-)?\d{4,5}\s)/, ', ')), row: i, cell });
        continue;
      }
      // "Building 64, Dubai Healthcare City, P.O. Box 50512, Dubai, United Arab Emirates · Tel …": where
      // there are no street numbers, the post-office box and the town make the address.
      const box = cell.text.split(/\s+[·•|]\s+/).find((part) => PO_BOX.test(part) && !/^(?:tel|phone|fax)\b/i.test(part));
      if (box) {
        out.push({ address: tidy(box.replace(/^[^:]{0,30}address\s*:\s*/i, '')), row: i, cell });
        continue;
      }
      const streetFirst = STREET_FIRST_ONE_LINE.exec(cell.text) ?? PIN_ONE_LINE.exec(cell.text);
      if (streetFirst) {
        out.push({ address: tidy(streetFirst[0]), row: i, cell });
        continue;
      }
      const one = ONE_LINE.exec(cell.text);
      if (one) {
        // "Page 1 of 2  Lakeside Labs, 123 Main St, ...": start at the street when one is named.
        const street = STREET_START.exec(one[0]);
        out.push({ address: tidy(one[0].slice(street?.index ?? 0)), row: i, cell });
        continue;
      }
      // The street on one line, the city on the next ("123 Main St" / "Suite 4" / "Springfield, IL 62701").
      if (!STREET_LINE.test(cell.text.trim())) continue;
      const parts = [cell.text.trim()];
      // ... or in the next cell of the same line.
      const beside = row.cells[row.cells.indexOf(cell) + 1];
      const besideCity = beside && CITY_LINE.exec(beside.text.trim());
      if (besideCity) {
        out.push({ address: tidy([...parts, besideCity[0]].join(', ')), row: i, cell });
        continue;
      }
      for (let k = i + 1; k <= i + 2 && k < rows.length; k++) {
        const below = rows[k]!.page === row.page ? rows[k]!.cells.find((c) => overlaps(c, cell)) : undefined;
        if (!below) break;
        const city = CITY_LINE.exec(below.text.trim());
        if (city) {
          out.push({ address: tidy([...parts, city[0]].join(', ')), row: i, cell });
          break;
        }
        if (!SUITE_LINE.test(below.text.trim())) break;
        parts.push(below.text.trim());
      }
    }
  });
  return out;
}

/** A phone or fax after the address is no part of it, whatever OCR made of the dot before it ("… Emirates - Tel +971 …"). */
const tidy = (address: string) => address.replace(/\s+[-–·•|,]?\s*\b(?:Tel|Tél|Phone|Fax)\b.*$/i, '').replace(/\s*[•·|]\s*/g, ', ').replace(/\s+/g, ' ').replace(/\s+,/g, ',').replace(/,,+/g, ',').trim();

function overlaps(a: Cell, b: Cell): boolean {
  return Math.min(a.x2, b.x2) - Math.max(a.x, b.x) > 0;
}

/** "Lab address:", "Laboratory address:", "Performing lab address:": the label says whose it is. */
const LAB_ADDRESS = /\b(?:lab|laboratory|performing\s+(?:lab|laboratory|site))\s+address\s*:/i;

/**
 * The lab's address: on a line that marks it as the lab's, or up to three lines under the lab's
 * name and in the same column. `labCells` are the cells the lab's name was read from.
 */
export function labAddress(rows: Row[], lab: string, labCells: { row: number; cell: Cell }[]): string {
  const labLower = lab.toLowerCase();
  for (const c of candidates(rows)) {
    const row = rows[c.row]!;
    const before = c.cell.text.slice(0, c.cell.text.indexOf(c.address.split(',')[0]!));
    // A labelled address other than the lab's ("Address:", "Patient Address:") is the patient's.
    if (/(?:^|\s)(?:patient\s+|pt\s+|home\s+)?address\s*:/i.test(before) && !LAB_MARK.test(before) && !LAB_ADDRESS.test(before)) continue;
    if (LAB_ADDRESS.test(before)) return c.address;
    if (LAB_MARK.test(row.text) || (labLower && row.text.toLowerCase().includes(labLower))) return c.address;
    const under = labCells.some((l) => l.row <= c.row && c.row - l.row <= 3 && rows[l.row]!.page === row.page && (l.row === c.row || overlaps(l.cell, c.cell)));
    if (under) return c.address;
  }
  return '';
}
