import { dice } from '../fuzzy';

/**
 * The labels reports print before their metadata, in many spellings. A label names the field its
 * value fills and a rank: a report that prints both "Accession #" and "Order #" has its specimen
 * number under the first (rank 0 beats rank 2), and "Printed:" stands in for the report date only
 * when nothing says "Reported". `stop` labels fill nothing: they end the value before them, and
 * name the other people and numbers a report prints ("Lab Director: Dr. X", "NPI", "Phone"),
 * which must never be read as the patient or the provider.
 */

export type Field =
  | 'name'
  | 'first'
  | 'last'
  | 'dob'
  | 'gender'
  | 'collected'
  | 'received'
  | 'reported'
  | 'specimen'
  | 'provider'
  | 'lab'
  | 'clia'
  | 'stop';

export interface Label {
  fields: Field[];
  rank: number;
  /** A regular expression for the spelling, matched case-insensitively between word boundaries. */
  re: string;
  /** Read without a colon when the value right after it has its field's shape ("performed at", "DOB 01/02/1980"). */
  colonless?: boolean;
  /** A heading over its value ("Patient Information" over the name): read from the line below only. */
  below?: boolean;
}

const label = (fields: Field | Field[], rank: number, spellings: string[], colonless = false): Label[] =>
  spellings.map((re) => ({ fields: Array.isArray(fields) ? fields : [fields], rank, re, ...(colonless ? { colonless } : {}) }));

const RECEIVED = String.raw`(?:r(?:e)?c(?:['’]?v)?['’]?d|received|receipt)`;

export const LABELS: Label[] = [
  ...label('name', 0, ['patient name', 'patient full name', 'pt name', 'pt\\. name', 'patient', 'pt', 'name of patient']),
  ...label('name', 1, ['name', 're', 'nombre', 'paciente', 'nombre del paciente']),
  ...label('name', 1, ['patient information', 'patient details', 'patient demographics', 'patient info']).map((l) => ({ ...l, below: true })),
  ...label('first', 0, ['patient first name', 'first name', 'given name', 'forename', 'forenames']),
  ...label('last', 0, ['patient last name', 'last name', 'surname', 'family name']),
  ...label('dob', 0, ['date of birth', 'birth date', 'birthdate', 'd\\.[o0]\\.b\\.?', 'dob', 'dob\\/age', 'birth', 'fecha de nacimiento', 'f\\. nac\\.?',
    'geb\\.?-?datum', 'geburtsdatum', 'geb\\. am', 'geboren am', 'born', 'date born'], true),
  ...label(['dob', 'gender'], 0, ['dob\\/sex', 'dob\\/gender', 'dob \\/ sex', 'birth ?date\\/sex', 'birth ?date\\/gender', 'date of birth ?\\/ ?(?:sex|gender)'], true),
  ...label('dob', 0, ['age\\/dob', 'age \\/ dob', 'age\\/date of birth'], true),
  ...label('gender', 0, ['sex', 'gender', 'age\\/sex', 'sex\\/age', 'age\\/gender', 'gender\\/age', 'age \\/ sex', 'age \\/ gender', 'gender \\/ age', 'sex \\/ age', 'legal sex', 'sex at birth', 'birth sex', 'sex assigned at birth', 'biological sex', 'administrative sex',
    'sexo', 'género', 'genero', 'geschlecht', 'm\\/f', 'sexe'], true),
  ...label('collected', 0, [
    'date\\/time collected', 'collection date\\/time', 'collection date and time', 'date collected', 'collection date', 'date of collection',
    'specimen collected', 'collected on', 'collected', 'coll date\\/time', 'coll\\. date\\/time', 'coll date', 'coll\\. date', 'coll\\.?',
    'collection', 'date drawn', 'draw date', 'drawn', 'date\\/time drawn', 'sample taken', 'sample collected', 'specimen taken',
    'fecha de toma', 'fecha de recolecci[oó]n', 'fecha de colecci[oó]n', 'toma de muestra', 'date obtained', 'obtained', 'specimen drawn',
    'collection time', 'draw time', 'date sampled', 'sampled',
    'entnahme', 'entnahmedatum', 'entnahmezeit', 'abnahme', 'abnahmedatum', 'probenentnahme',
  ], true),
  // An outpatient visit's date of service is when the blood was drawn, where nothing says collected.
  ...label('collected', 1, ['date of service', 'service date', 'dos'], true),
  ...label('received', 0, [
    `date\\/time ${RECEIVED}`, `${RECEIVED} date\\/time`, `date ${RECEIVED}`, `${RECEIVED} date`, `specimen ${RECEIVED}`, `${RECEIVED} on`, RECEIVED, 'recibido', 'fecha de recepci[oó]n',
    `${RECEIVED} in lab`, `${RECEIVED} at (?:the )?lab(?:oratory)?`, 'date accessioned', 'accessioned', 'arrived', 'date arrived', 'lab receipt',
    // Not "Registered" or "Arrival": those are the patient's visit, not the specimen's receipt.
    'logged in', 'log-?in date', 'date logged',
    'eingang', 'eingangsdatum', 'probeneingang', 'laboreingang',
  ], true),
  ...label('reported', 0, [
    'date\\/time reported', 'reported date\\/time', 'date reported', 'report date', 'reported on', 'date of report', 'final report date',
    'final report', 'reported', 'resulted', 'rpt', 'rpt date', 'rptd', 'result date', 'date resulted', 'report released', 'released', 'results released', 'results released on', 'report date\\/time',
    'fecha de reporte', 'fecha de informe', 'fecha de resultado',
    'befunddatum', 'befund vom', 'befundausgang', 'berichtsdatum', 'ausgangsdatum',
  ], true),
  ...label('reported', 1, [
    'date issued', 'issued', 'verified', 'date verified', 'authori[sz]ed', 'date authori[sz]ed', 'authori[sz]ed on', 'validated', 'date validated',
    'finali[sz]ed', 'date finali[sz]ed', 'signed out', 'report completed', 'completed',
    'approved', 'date approved', 'approved on', 'verified on', 'verified date', 'date of issue', 'issue date', 'issued on',
    // An analyser's printout: the run is when the results were made.
    'run', 'run date', 'run time', 'date run', 'analy[sz]ed', 'date analy[sz]ed', 'tested', 'test date',
  ], true),
  ...label('reported', 2, ['printed', 'printed on', 'date printed', 'print date', 'printed date'], true),
  // Colonless too, where a number follows: "Specimen H24-46701 collected 01/09/2024" in a note's prose.
  ...label('specimen', 0, [
    'specimen id', 'specimen number', 'specimen no\\.?', 'specimen #', 'specimen', 'accession number', 'accession no\\.?', 'accession #',
    'accession', 'acc(?:ession)?\\.? ?#', 'acc\\.? no\\.?', 'acc', 'sample id', 'sample number', 'sample no\\.?', 'lab id', 'lab no\\.?', 'lab #',
    'lab number', 'laboratory number', 'lab accession', 'accession id', 'lab ref(?:erence)?(?: no\\.?| #)?', 'sample #', 'kit id', 'barcode',
    'auftrags-?nr\\.?', 'auftragsnummer', 'proben-?nr\\.?', 'probennummer', 'labor-?nr\\.?', 'labornummer',
    'spec #', 'spec\\. #', 'spec no\\.?', 'spec\\. no\\.?', 'spec id',
    'folio', 'no\\. de orden', 'n[uú]mero de orden', 'orden',
  ], true),
  ...label('specimen', 2, ['order #', 'order number', 'order no\\.?', 'order id', 'requisition #', 'requisition number', 'requisition', 'req #', 'req\\. #', 'control #', 'control number']),
  ...label('provider', 0, [
    'ordering physician', 'ordering provider', 'ord\\.? phys(?:ician)?\\.?', 'ord\\.? prov(?:ider)?\\.?', 'ord\\.? dr\\.?', 'ordering doctor', 'ordering clinician', 'ordering md', 'ordering practitioner', 'ordering dr\\.?',
    'ordering prescriber',
  ]),
  ...label('provider', 1, [
    'physician', 'provider', 'doctor', 'requesting physician', 'requesting provider', 'requesting doctor',
    'physician name', 'provider name', 'clinician', 'requesting clinician', 'ordering', 'médico', 'medico', 'médico solicitante',
    'prescriber', 'practitioner', 'consultant', 'pcp', 'primary care (?:physician|provider)', 'requestor', 'requester', 'authori[sz]ing provider', 'authori[sz]ing physician', 'submitting physician', 'submitting provider',
    'anforderer', 'auftraggeber', 'überweiser', 'behandelnder arzt', 'arzt',
  ]),
  // Colonless where a clinician follows ("Ordered by Kofi Osei, MD · Performed by …").
  ...label('provider', 1, ['ordered by', 'requested by'], true),
  // A German report's sender ("Einsender") heads the ordering practice's block: its first line names the physician.
  ...label('provider', 1, ['einsender']).map((l) => ({ ...l, below: true })),
  ...label('provider', 2, ['ref\\.? by', 'ref\\.? dr\\.?', 'ref\\.? doctor', 'referring physician', 'referring provider', 'referring doctor', 'referring', 'referred by', 'attending physician', 'attending']),
  // "Client" is the ordering account; some reports print the physician there (see values.ts).
  ...label('provider', 3, ['client']),
  ...label('lab', 0, ['laboratory', 'lab name', 'laboratory name', 'lab', 'testing laboratory', 'testing lab']),
  ...label('lab', 2, [
    'performing (?:lab|laboratory|site|location)', 'reporting (?:lab|laboratory)', 'processed by', 'analy[sz]ed by', 'testing site', 'performed at', 'testing performed by', 'tests performed by', 'performed by', 'testing performed at', 'tested by', 'tested at',
  ], true),
  ...label('clia', 0, ['clia', 'clia #', 'clia no\\.?', 'clia number', 'clia id', 'clia lab #'], true),
  ...label('stop', 0, [
    'age', 'phone', 'ph', 'tel', 'telephone', 'fax', 'npi', 'upin', 'account', 'account number', 'account #', 'acct', 'acct #', 'patient id',
    'patient #', 'pt id', 'mrn', 'medical record', 'medical record number', 'mr #', 'chart', 'chart #', 'fasting', 'status', 'report status',
    'address', 'patient address', 'pt address', 'lab address', 'laboratory address', 'patient phone', 'director', 'lab director', 'laboratory director', 'medical director',
    'clia director', 'pathologist', 'page', 'location', 'loc', 'ward', 'room', 'bed', 'race', 'ethnicity', 'ssn', 'insurance', 'id', 'species',
    'specimen type', 'specimen source', 'source', 'ordered', 'order date', 'date ordered', 'email', 'e-mail', 'comments', 'comment',
    'reviewed by', 'verified by', 'signed by', 'electronically signed by', 'technologist', 'tech', 'entered', 'copy to', 'cc',
    'facility', 'facility name', 'clinic name', 'practice name', 'hospital name', 'account name', 'client name', 'insurance name',
    'contact name', 'guarantor', 'guarantor name', 'emergency contact', 'nhs no\\.?', 'nhs number', 'hospital no\\.?', 'hospital number',
    'health card', 'unit no\\.?', 'department', 'dept', 'unit', 'visit', 'encounter', 'time', 'date', 'height', 'weight', 'diagnosis', 'icd',
    'pat\\.?-?nr\\.?', 'patientennummer', 'alter', 'seite', 'station', 'kostenträger', 'versicherung', 'medizinisch validiert', 'validiert',
  ]),
];

/** Spellings longest first, so "lab director" is read before "lab" and "patient id" before "patient". */
const ORDERED = [...LABELS].sort((a, b) => b.re.length - a.re.length);

/**
 * A label: the spelling, then an optional separator (":" or "#", and "No." before a colon). The
 * lookbehind keeps labels at word starts ("Bilab" is no "lab"); the lookahead keeps them whole.
 */
export const LABEL_RE = new RegExp(
  String.raw`(?<![A-Za-z0-9'’])(?:${ORDERED.map((l) => `(${l.re})`).join('|')})(?![A-Za-z'’])(\s*(?:\([^()]{1,30}\)\s*:|#\s*:?|:))?`,
  'gi',
);

export interface LabelMatch {
  label: Label;
  index: number;
  /** Where the value starts (after the separator). */
  end: number;
  /** A colon or "#" after the label. */
  separated: boolean;
}

export function findLabels(text: string): LabelMatch[] {
  const out: LabelMatch[] = [];
  for (const m of text.matchAll(LABEL_RE)) {
    const group = m.slice(1, ORDERED.length + 1).findIndex((g) => g !== undefined);
    if (group < 0) continue;
    const sep = m[ORDERED.length + 1];
    out.push({ label: ORDERED[group]!, index: m.index, end: m.index + m[0].length, separated: !!sep });
  }
  return out;
}

const WHOLE_RE = new RegExp(String.raw`^(?:${ORDERED.map((l) => `(${l.re})`).join('|')})(?:\s*\([^()]{1,30}\))?\s*[:#]?$`, 'i');

/** The label a whole cell spells ("Date of Birth", "ACC#:"), if it is one. */
export function wholeLabel(text: string): Label | undefined {
  const m = WHOLE_RE.exec(snapLabel(text.trim()));
  if (!m) return undefined;
  const group = m.slice(1).findIndex((g) => g !== undefined);
  return ORDERED[group];
}

/**
 * Words labels are made of: OCR-damaged spellings snap to the most similar one ("Date of Bith" ->
 * date of birth, "Pavent" -> patient). Every word of every label is in it, so a word that is already
 * a label word stays what it is ("Client" is not a damaged "Patient", "Performed" not "Performing").
 */
const LABEL_WORDS = [
  ...new Set(
    LABELS.flatMap((l) => l.re.replace(/\(\?:[^)]*\)\??|\\.|[?[\]]/g, ' ').split(/[^a-z]+/)).filter((w) => w.length >= 4),
  ),
  'physician', 'provider', 'number', 'laboratory', 'recd', 'rcvd', 'recv', 'coll', 'phys', 'prov', 'clia',
];

// Labels are a small closed vocabulary, so a looser match is safe ("Pavent" is Patient).
const LABEL_SNAP = 0.5;

/** Words near a label word that are words of their own ("exported" is no damaged "reported"). */
const NOT_LABEL_WORDS = new Set(['exported', 'imported', 'supported', 'deported', 'sported', 'expected', 'collective', 'rejected']);

export function snapLabel(text: string): string {
  return text.replace(/[A-Za-z]{4,}/g, (word) => {
    const lower = word.toLowerCase();
    if (LABEL_WORDS.includes(lower) || NOT_LABEL_WORDS.has(lower)) return word;
    let best = '';
    let bestScore = 0;
    for (const w of LABEL_WORDS) {
      const score = dice(lower, w);
      if (score > bestScore) [best, bestScore] = [w, score];
    }
    return bestScore >= LABEL_SNAP && Math.abs(best.length - lower.length) <= 2 ? best : word;
  });
}


/** Snaps only the part before the cell's first colon: the value after it stays as read. */
export function withLabelSnapped(text: string): string {
  const colon = text.indexOf(':');
  return colon < 0 ? text : snapLabel(text.slice(0, colon)) + text.slice(colon);
}
