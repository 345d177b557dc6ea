import { createHash } from 'node:crypto';
import { and, asc, eq, isNull, notInArray, sql } from 'drizzle-orm';
import { US_STATES } from '../../contract';
import type { Database } from '../../store/db';
import { labAccounts, labs, labTests, markers, settings, teams, type ServiceSchema } from '../db/schema';
import { announceCatalogueChange, forgetCatalogue } from '../domain/labs/catalogueCache';

/**
 * The lab catalogue: four labs, their markers (biomarkers and panels, each with its expected results
 * and their LOINC codes) and the shared lab tests (team_id null). The data below is the source of
 * truth; `syncLabCatalogue` upserts it at every service start, so a catalogue change reaches an
 * existing store on the next start. Ids are stable: a lab's marker is `lab_id * 1000 + n`, where `n`
 * belongs to the marker definition, and a shared lab test's uuid is derived from its slug.
 */

type Db = Database<ServiceSchema>;

export type LabSlug = 'quest' | 'labcorp' | 'bioreference' | 'sonora_quest';

export interface LabDefinition {
  id: number;
  slug: LabSlug;
  name: string;
  firstLineAddress: string;
  city: string;
  zipcode: string;
  collectionMethods: string[];
  sampleTypes: string[];
}

export const LAB_DEFINITIONS: readonly LabDefinition[] = [
  {
    id: 1,
    slug: 'quest',
    name: 'Quest Diagnostics',
    firstLineAddress: '500 Plaza Drive',
    city: 'Secaucus',
    zipcode: '07094',
    collectionMethods: ['walk_in_test', 'at_home_phlebotomy', 'testkit'],
    sampleTypes: ['serum', 'urine', 'dried_blood_spot'],
  },
  {
    id: 2,
    slug: 'labcorp',
    name: 'Labcorp',
    firstLineAddress: '531 South Spring Street',
    city: 'Burlington',
    zipcode: '27215',
    collectionMethods: ['walk_in_test', 'at_home_phlebotomy', 'testkit'],
    sampleTypes: ['serum', 'urine', 'dried_blood_spot', 'arm_collector'],
  },
  {
    id: 3,
    slug: 'bioreference',
    name: 'BioReference',
    firstLineAddress: '481 Edward H. Ross Drive',
    city: 'Elmwood Park',
    zipcode: '07407',
    collectionMethods: ['walk_in_test', 'at_home_phlebotomy', 'on_site_collection'],
    sampleTypes: ['serum', 'urine', 'saliva'],
  },
  {
    id: 4,
    slug: 'sonora_quest',
    name: 'Sonora Quest',
    firstLineAddress: '424 South 56th Street',
    city: 'Phoenix',
    zipcode: '85034',
    collectionMethods: ['walk_in_test', 'at_home_phlebotomy'],
    sampleTypes: ['serum', 'urine'],
  },
];

// ---------------------------------------------------------------------------------------------
// Results: what a lab reports, with its real LOINC code.

interface ResultDefinition {
  /** The result's display name on a report. */
  label: string;
  loinc: string;
  /** The LOINC long common name. */
  loincName: string;
  unit: string | null;
  /** Calculated or ratio results are reported when computable; they are not required. */
  optional?: boolean;
}

const R = {
  glucose: { label: 'Glucose', loinc: '2345-7', loincName: 'Glucose [Mass/volume] in Serum or Plasma', unit: 'mg/dL' },
  hba1c: { label: 'Hemoglobin A1c', loinc: '4548-4', loincName: 'Hemoglobin A1c/Hemoglobin.total in Blood', unit: '%' },
  eag: { label: 'Estimated Average Glucose', loinc: '27353-2', loincName: 'Glucose mean value [Mass/volume] in Blood Estimated from glycated hemoglobin', unit: 'mg/dL', optional: true },
  tsh: { label: 'TSH', loinc: '3016-3', loincName: 'Thyrotropin [Units/volume] in Serum or Plasma', unit: 'mIU/L' },
  ft4: { label: 'Free T4', loinc: '3024-7', loincName: 'Thyroxine (T4) free [Mass/volume] in Serum or Plasma', unit: 'ng/dL' },
  ft3: { label: 'Free T3', loinc: '3051-0', loincName: 'Triiodothyronine (T3) Free [Mass/volume] in Serum or Plasma', unit: 'pg/mL' },
  t4: { label: 'T4, Total', loinc: '3026-2', loincName: 'Thyroxine (T4) [Mass/volume] in Serum or Plasma', unit: 'ug/dL' },
  t3uptake: { label: 'T3 Uptake', loinc: '3050-2', loincName: 'Triiodothyronine resin uptake (T3RU) in Serum or Plasma', unit: '%' },
  fti: { label: 'Free Thyroxine Index', loinc: '32215-6', loincName: 'Thyroxine free index in Serum or Plasma by calculation', unit: null, optional: true },
  vitdTotal: { label: 'Vitamin D, 25-OH, Total', loinc: '62292-8', loincName: '25-Hydroxyvitamin D2+25-Hydroxyvitamin D3 [Mass/volume] in Serum or Plasma', unit: 'ng/mL' },
  vitd3: { label: 'Vitamin D, 25-OH, D3', loinc: '1989-3', loincName: '25-Hydroxyvitamin D3 [Mass/volume] in Serum or Plasma', unit: 'ng/mL' },
  vitd2: { label: 'Vitamin D, 25-OH, D2', loinc: '1988-5', loincName: '25-Hydroxyvitamin D2 [Mass/volume] in Serum or Plasma', unit: 'ng/mL', optional: true },
  ferritin: { label: 'Ferritin', loinc: '2276-4', loincName: 'Ferritin [Mass/volume] in Serum or Plasma', unit: 'ng/mL' },
  iron: { label: 'Iron, Total', loinc: '2498-4', loincName: 'Iron [Mass/volume] in Serum or Plasma', unit: 'ug/dL' },
  tibc: { label: 'Iron Binding Capacity', loinc: '2500-7', loincName: 'Iron binding capacity [Mass/volume] in Serum or Plasma', unit: 'ug/dL' },
  ironSat: { label: '% Saturation', loinc: '2502-3', loincName: 'Iron saturation [Mass Fraction] in Serum or Plasma', unit: '%', optional: true },
  b12: { label: 'Vitamin B12', loinc: '2132-9', loincName: 'Cobalamin (Vitamin B12) [Mass/volume] in Serum or Plasma', unit: 'pg/mL' },
  folate: { label: 'Folate, Serum', loinc: '2284-8', loincName: 'Folate [Mass/volume] in Serum or Plasma', unit: 'ng/mL' },
  creatinine: { label: 'Creatinine', loinc: '2160-0', loincName: 'Creatinine [Mass/volume] in Serum or Plasma', unit: 'mg/dL' },
  egfr: { label: 'eGFR', loinc: '98979-8', loincName: 'Glomerular filtration rate/1.73 sq M.predicted [Volume Rate/Area] in Serum, Plasma or Blood by Creatinine-based formula (CKD-EPI 2021)', unit: 'mL/min/1.73m2', optional: true },
  bun: { label: 'Urea Nitrogen (BUN)', loinc: '3094-0', loincName: 'Urea nitrogen [Mass/volume] in Serum or Plasma', unit: 'mg/dL' },
  bunCreat: { label: 'BUN/Creatinine Ratio', loinc: '3097-3', loincName: 'Urea nitrogen/Creatinine [Mass Ratio] in Serum or Plasma', unit: null, optional: true },
  alt: { label: 'ALT', loinc: '1742-6', loincName: 'Alanine aminotransferase [Enzymatic activity/volume] in Serum or Plasma', unit: 'U/L' },
  ast: { label: 'AST', loinc: '1920-8', loincName: 'Aspartate aminotransferase [Enzymatic activity/volume] in Serum or Plasma', unit: 'U/L' },
  alp: { label: 'Alkaline Phosphatase', loinc: '6768-6', loincName: 'Alkaline phosphatase [Enzymatic activity/volume] in Serum or Plasma', unit: 'U/L' },
  bili: { label: 'Bilirubin, Total', loinc: '1975-2', loincName: 'Bilirubin.total [Mass/volume] in Serum or Plasma', unit: 'mg/dL' },
  biliDirect: { label: 'Bilirubin, Direct', loinc: '1968-7', loincName: 'Bilirubin.direct [Mass/volume] in Serum or Plasma', unit: 'mg/dL' },
  albumin: { label: 'Albumin', loinc: '1751-7', loincName: 'Albumin [Mass/volume] in Serum or Plasma', unit: 'g/dL' },
  protein: { label: 'Protein, Total', loinc: '2885-2', loincName: 'Protein [Mass/volume] in Serum or Plasma', unit: 'g/dL' },
  globulin: { label: 'Globulin', loinc: '10834-0', loincName: 'Globulin [Mass/volume] in Serum by calculation', unit: 'g/dL', optional: true },
  agRatio: { label: 'Albumin/Globulin Ratio', loinc: '1759-0', loincName: 'Albumin/Globulin [Mass Ratio] in Serum or Plasma', unit: null, optional: true },
  sodium: { label: 'Sodium', loinc: '2951-2', loincName: 'Sodium [Moles/volume] in Serum or Plasma', unit: 'mmol/L' },
  potassium: { label: 'Potassium', loinc: '2823-3', loincName: 'Potassium [Moles/volume] in Serum or Plasma', unit: 'mmol/L' },
  chloride: { label: 'Chloride', loinc: '2075-0', loincName: 'Chloride [Moles/volume] in Serum or Plasma', unit: 'mmol/L' },
  co2: { label: 'Carbon Dioxide', loinc: '2028-9', loincName: 'Carbon dioxide, total [Moles/volume] in Serum or Plasma', unit: 'mmol/L' },
  calcium: { label: 'Calcium', loinc: '17861-6', loincName: 'Calcium [Mass/volume] in Serum or Plasma', unit: 'mg/dL' },
  chol: { label: 'Cholesterol, Total', loinc: '2093-3', loincName: 'Cholesterol [Mass/volume] in Serum or Plasma', unit: 'mg/dL' },
  hdl: { label: 'HDL Cholesterol', loinc: '2085-9', loincName: 'Cholesterol in HDL [Mass/volume] in Serum or Plasma', unit: 'mg/dL' },
  ldl: { label: 'LDL Cholesterol (calculated)', loinc: '13457-7', loincName: 'Cholesterol in LDL [Mass/volume] in Serum or Plasma by calculation', unit: 'mg/dL' },
  trig: { label: 'Triglycerides', loinc: '2571-8', loincName: 'Triglyceride [Mass/volume] in Serum or Plasma', unit: 'mg/dL' },
  cholHdl: { label: 'Chol/HDLC Ratio', loinc: '9830-1', loincName: 'Cholesterol.total/Cholesterol in HDL [Mass Ratio] in Serum or Plasma', unit: null, optional: true },
  nonHdl: { label: 'Non-HDL Cholesterol', loinc: '43396-1', loincName: 'Cholesterol non HDL [Mass/volume] in Serum or Plasma', unit: 'mg/dL', optional: true },
  hscrp: { label: 'hs-CRP', loinc: '30522-7', loincName: 'C reactive protein [Mass/volume] in Serum or Plasma by High sensitivity method', unit: 'mg/L' },
  testo: { label: 'Testosterone, Total', loinc: '2986-8', loincName: 'Testosterone [Mass/volume] in Serum or Plasma', unit: 'ng/dL' },
  e2: { label: 'Estradiol', loinc: '2243-4', loincName: 'Estradiol (E2) [Mass/volume] in Serum or Plasma', unit: 'pg/mL' },
  psa: { label: 'PSA, Total', loinc: '2857-1', loincName: 'Prostate specific Ag [Mass/volume] in Serum or Plasma', unit: 'ng/mL' },
  cortisol: { label: 'Cortisol, AM', loinc: '2143-6', loincName: 'Cortisol [Mass/volume] in Serum or Plasma', unit: 'ug/dL' },
  insulin: { label: 'Insulin', loinc: '20448-7', loincName: 'Insulin [Units/volume] in Serum or Plasma', unit: 'uIU/mL' },
  uric: { label: 'Uric Acid', loinc: '3084-1', loincName: 'Urate [Mass/volume] in Serum or Plasma', unit: 'mg/dL' },
  magnesium: { label: 'Magnesium', loinc: '19123-9', loincName: 'Magnesium [Mass/volume] in Serum or Plasma', unit: 'mg/dL' },
  dheas: { label: 'DHEA Sulfate', loinc: '2191-5', loincName: 'Dehydroepiandrosterone sulfate (DHEA-S) [Mass/volume] in Serum or Plasma', unit: 'ug/dL' },
  apob: { label: 'Apolipoprotein B', loinc: '1884-6', loincName: 'Apolipoprotein B [Mass/volume] in Serum or Plasma', unit: 'mg/dL' },
  lpa: { label: 'Lipoprotein (a)', loinc: '10835-7', loincName: 'Lipoprotein a [Mass/volume] in Serum or Plasma', unit: 'mg/dL' },
  ggt: { label: 'GGT', loinc: '2324-2', loincName: 'Gamma glutamyl transferase [Enzymatic activity/volume] in Serum or Plasma', unit: 'U/L' },
  wbc: { label: 'White Blood Cell Count', loinc: '6690-2', loincName: 'Leukocytes [#/volume] in Blood by Automated count', unit: '10*3/uL' },
  rbc: { label: 'Red Blood Cell Count', loinc: '789-8', loincName: 'Erythrocytes [#/volume] in Blood by Automated count', unit: '10*6/uL' },
  hgb: { label: 'Hemoglobin', loinc: '718-7', loincName: 'Hemoglobin [Mass/volume] in Blood', unit: 'g/dL' },
  hct: { label: 'Hematocrit', loinc: '4544-3', loincName: 'Hematocrit [Volume Fraction] of Blood by Automated count', unit: '%' },
  mcv: { label: 'MCV', loinc: '787-2', loincName: 'MCV [Entitic volume] by Automated count', unit: 'fL' },
  mch: { label: 'MCH', loinc: '785-6', loincName: 'MCH [Entitic mass] by Automated count', unit: 'pg' },
  mchc: { label: 'MCHC', loinc: '786-4', loincName: 'MCHC [Mass/volume] by Automated count', unit: 'g/dL' },
  rdw: { label: 'RDW', loinc: '788-0', loincName: 'Erythrocyte distribution width [Ratio] by Automated count', unit: '%' },
  plt: { label: 'Platelet Count', loinc: '777-3', loincName: 'Platelets [#/volume] in Blood by Automated count', unit: '10*3/uL' },
  neutPct: { label: 'Neutrophils', loinc: '770-8', loincName: 'Neutrophils/100 leukocytes in Blood by Automated count', unit: '%' },
  lymphPct: { label: 'Lymphocytes', loinc: '736-9', loincName: 'Lymphocytes/100 leukocytes in Blood by Automated count', unit: '%' },
  monoPct: { label: 'Monocytes', loinc: '5905-5', loincName: 'Monocytes/100 leukocytes in Blood by Automated count', unit: '%' },
  eosPct: { label: 'Eosinophils', loinc: '713-8', loincName: 'Eosinophils/100 leukocytes in Blood by Automated count', unit: '%' },
  basoPct: { label: 'Basophils', loinc: '706-2', loincName: 'Basophils/100 leukocytes in Blood by Automated count', unit: '%' },
  neutAbs: { label: 'Absolute Neutrophils', loinc: '751-8', loincName: 'Neutrophils [#/volume] in Blood by Automated count', unit: '10*3/uL', optional: true },
  lymphAbs: { label: 'Absolute Lymphocytes', loinc: '731-0', loincName: 'Lymphocytes [#/volume] in Blood by Automated count', unit: '10*3/uL', optional: true },
  monoAbs: { label: 'Absolute Monocytes', loinc: '742-7', loincName: 'Monocytes [#/volume] in Blood by Automated count', unit: '10*3/uL', optional: true },
  eosAbs: { label: 'Absolute Eosinophils', loinc: '711-2', loincName: 'Eosinophils [#/volume] in Blood by Automated count', unit: '10*3/uL', optional: true },
  hivScreen: { label: 'HIV-1/2 Antigen and Antibodies, 4th Gen', loinc: '56888-1', loincName: 'HIV 1+2 Ab+HIV1 p24 Ag [Presence] in Serum or Plasma by Immunoassay', unit: null },
  hcvAb: { label: 'Hepatitis C Antibody', loinc: '13955-0', loincName: 'Hepatitis C virus Ab [Presence] in Serum or Plasma by Immunoassay', unit: null },
  rpr: { label: 'RPR (Syphilis Screen)', loinc: '20507-0', loincName: 'Reagin Ab [Presence] in Serum by RPR', unit: null },
  basoAbs: { label: 'Absolute Basophils', loinc: '704-7', loincName: 'Basophils [#/volume] in Blood by Automated count', unit: '10*3/uL', optional: true },
} satisfies Record<string, ResultDefinition>;

type ResultKey = keyof typeof R;

// ---------------------------------------------------------------------------------------------
// Ask-on-order-entry questions.

type AoeKind = 'fasting' | 'collection_time' | 'psa';

// ---------------------------------------------------------------------------------------------
// Markers: one definition per biomarker or panel; `codes` holds each lab's own test code (a lab
// without a code does not offer the marker). Codes follow each lab's style: Quest numeric test codes
// (Sonora Quest, a Quest joint venture, shares them), Labcorp six-digit codes, BioReference
// letter-prefixed codes. Each lab offers 30 to 45 markers.

interface MarkerDefinition {
  /** Stable number within a lab: the marker id is lab_id * 1000 + n. */
  n: number;
  name: string;
  type: 'biomarker' | 'panel';
  description: string;
  results: ResultKey[];
  /** Some labs report a different set of results for the same test. */
  resultsByLab?: Partial<Record<LabSlug, ResultKey[]>>;
  /** List price in USD at Quest; other labs derive theirs. */
  price: number;
  tat: [common: number, worstCase: number];
  /** Calculated results (eGFR, LDL) are only orderable inside a panel. */
  aLaCarte?: boolean;
  aoe?: AoeKind;
  codes: Partial<Record<LabSlug, string>>;
}

const ALL = (quest: string, labcorp: string, bioreference: string, sonoraQuest: string) => ({
  quest,
  labcorp,
  bioreference,
  sonora_quest: sonoraQuest,
});

export const MARKER_DEFINITIONS: readonly MarkerDefinition[] = [
  // Biomarkers
  { n: 1, name: 'Glucose', type: 'biomarker', description: 'Blood sugar level; screens for diabetes and prediabetes.', results: ['glucose'], price: 12, tat: [1, 3], aoe: 'fasting', codes: ALL('483', '001818', 'G0106', '483') },
  { n: 2, name: 'Hemoglobin A1c', type: 'biomarker', description: 'Average blood sugar over the past two to three months.', results: ['hba1c', 'eag'], price: 18, tat: [1, 3], codes: ALL('496', '001453', 'H0412', '496') },
  { n: 3, name: 'TSH', type: 'biomarker', description: 'Thyroid stimulating hormone; first-line screen of thyroid function.', results: ['tsh'], price: 22, tat: [1, 3], codes: ALL('899', '004259', 'T0801', '899') },
  { n: 4, name: 'Free T4', type: 'biomarker', description: 'Unbound thyroxine, the main thyroid hormone.', results: ['ft4'], price: 24, tat: [1, 3], codes: ALL('866', '001974', 'T0806', '866') },
  { n: 5, name: 'Free T3', type: 'biomarker', description: 'Unbound triiodothyronine, the active thyroid hormone.', results: ['ft3'], price: 26, tat: [1, 4], codes: { quest: '34429', labcorp: '010389' } },
  {
    n: 6,
    name: 'Vitamin D, 25-Hydroxy',
    type: 'biomarker',
    description: 'Vitamin D status (D2 and D3).',
    results: ['vitdTotal', 'vitd3', 'vitd2'],
    resultsByLab: { labcorp: ['vitdTotal'], bioreference: ['vitdTotal'] },
    price: 45,
    tat: [2, 5],
    codes: ALL('17306', '081950', 'V0250', '17306'),
  },
  { n: 7, name: 'Ferritin', type: 'biomarker', description: 'Iron stores in the body.', results: ['ferritin'], price: 20, tat: [1, 3], codes: ALL('457', '004598', 'F0310', '457') },
  { n: 8, name: 'Iron, Total', type: 'biomarker', description: 'Iron circulating in the blood.', results: ['iron'], price: 14, tat: [1, 3], codes: { quest: '7573', labcorp: '001339', bioreference: 'I0201' } },
  { n: 9, name: 'Vitamin B12', type: 'biomarker', description: 'Cobalamin level; deficiency causes anemia and neuropathy.', results: ['b12'], price: 25, tat: [1, 4], codes: { quest: '927', labcorp: '001503', bioreference: 'V0120' } },
  { n: 10, name: 'Folate, Serum', type: 'biomarker', description: 'Folic acid level.', results: ['folate'], price: 25, tat: [1, 4], codes: { labcorp: '002014' } },
  { n: 11, name: 'Creatinine', type: 'biomarker', description: 'Kidney function; reported with an estimated GFR.', results: ['creatinine', 'egfr'], price: 10, tat: [1, 2], codes: ALL('375', '001370', 'C0340', '375') },
  { n: 12, name: 'eGFR', type: 'biomarker', description: 'Estimated glomerular filtration rate, calculated from creatinine.', results: ['egfr'], price: 10, tat: [1, 2], aLaCarte: false, codes: { labcorp: '100791' } },
  { n: 13, name: 'Urea Nitrogen (BUN)', type: 'biomarker', description: 'Blood urea nitrogen; kidney function and hydration.', results: ['bun'], price: 10, tat: [1, 2], codes: ALL('294', '001040', 'B0120', '294') },
  { n: 14, name: 'ALT', type: 'biomarker', description: 'Alanine aminotransferase; liver cell injury.', results: ['alt'], price: 11, tat: [1, 2], codes: ALL('823', '001545', 'A0230', '823') },
  { n: 15, name: 'AST', type: 'biomarker', description: 'Aspartate aminotransferase; liver and muscle injury.', results: ['ast'], price: 11, tat: [1, 2], codes: ALL('822', '001123', 'A0240', '822') },
  { n: 16, name: 'Alkaline Phosphatase', type: 'biomarker', description: 'Liver and bone enzyme.', results: ['alp'], price: 11, tat: [1, 2], codes: { quest: '234' } },
  { n: 17, name: 'Bilirubin, Total', type: 'biomarker', description: 'Breakdown product of red cells; liver function.', results: ['bili'], price: 11, tat: [1, 2], codes: { quest: '287' } },
  { n: 18, name: 'Albumin', type: 'biomarker', description: 'Main blood protein made by the liver.', results: ['albumin'], price: 10, tat: [1, 2], codes: { quest: '223', bioreference: 'A0110' } },
  { n: 19, name: 'Protein, Total', type: 'biomarker', description: 'Albumin and globulins together.', results: ['protein'], price: 10, tat: [1, 2], codes: { bioreference: 'P0410' } },
  { n: 20, name: 'Sodium', type: 'biomarker', description: 'Electrolyte; fluid balance.', results: ['sodium'], price: 9, tat: [1, 2], codes: ALL('836', '001198', 'S0210', '836') },
  { n: 21, name: 'Potassium', type: 'biomarker', description: 'Electrolyte; heart and muscle function.', results: ['potassium'], price: 9, tat: [1, 2], codes: ALL('733', '001180', 'P0310', '733') },
  { n: 22, name: 'Chloride', type: 'biomarker', description: 'Electrolyte; acid-base balance.', results: ['chloride'], price: 9, tat: [1, 2], codes: { bioreference: 'C0210' } },
  { n: 23, name: 'Carbon Dioxide (CO2)', type: 'biomarker', description: 'Bicarbonate; acid-base balance.', results: ['co2'], price: 9, tat: [1, 2], codes: { sonora_quest: '310' } },
  { n: 24, name: 'Calcium', type: 'biomarker', description: 'Bone, nerve and muscle function.', results: ['calcium'], price: 9, tat: [1, 2], codes: ALL('303', '001016', 'C0105', '303') },
  { n: 25, name: 'Cholesterol, Total', type: 'biomarker', description: 'Total blood cholesterol.', results: ['chol'], price: 12, tat: [1, 2], codes: ALL('334', '001065', 'L0110', '334') },
  { n: 26, name: 'HDL Cholesterol', type: 'biomarker', description: 'High-density lipoprotein ("good") cholesterol.', results: ['hdl'], price: 14, tat: [1, 2], codes: ALL('608', '011817', 'L0120', '608') },
  { n: 27, name: 'LDL Cholesterol (calculated)', type: 'biomarker', description: 'Low-density lipoprotein cholesterol, calculated from a lipid panel.', results: ['ldl'], price: 14, tat: [1, 2], aLaCarte: false, codes: ALL('8293', '012053', 'L0130', '8293') },
  { n: 28, name: 'Triglycerides', type: 'biomarker', description: 'Blood fats; best measured fasting.', results: ['trig'], price: 12, tat: [1, 2], aoe: 'fasting', codes: ALL('896', '001172', 'L0140', '896') },
  { n: 29, name: 'hs-CRP', type: 'biomarker', description: 'High-sensitivity C-reactive protein; inflammation and cardiovascular risk.', results: ['hscrp'], price: 24, tat: [1, 3], codes: { quest: '10124', labcorp: '120766', bioreference: 'C0510' } },
  { n: 30, name: 'Testosterone, Total', type: 'biomarker', description: 'Total testosterone; best drawn in the morning.', results: ['testo'], price: 35, tat: [2, 5], codes: { quest: '15983', labcorp: '004226', sonora_quest: '15983' } },
  { n: 31, name: 'Estradiol', type: 'biomarker', description: 'The main estrogen.', results: ['e2'], price: 38, tat: [2, 5], codes: { quest: '4021', labcorp: '004515', sonora_quest: '4021' } },
  { n: 32, name: 'PSA, Total', type: 'biomarker', description: 'Prostate-specific antigen.', results: ['psa'], price: 30, tat: [1, 3], aoe: 'psa', codes: { quest: '5363', labcorp: '010322', sonora_quest: '5363' } },
  { n: 33, name: 'Cortisol, AM', type: 'biomarker', description: 'Stress hormone; drawn between 7 and 9 am.', results: ['cortisol'], price: 28, tat: [1, 3], aoe: 'collection_time', codes: { quest: '367' } },
  { n: 34, name: 'Insulin', type: 'biomarker', description: 'Fasting insulin; insulin resistance.', results: ['insulin'], price: 30, tat: [2, 4], aoe: 'fasting', codes: ALL('561', '004333', 'I0310', '561') },
  { n: 35, name: 'Uric Acid', type: 'biomarker', description: 'Gout and kidney stone risk.', results: ['uric'], price: 10, tat: [1, 2], codes: { quest: '905', bioreference: 'U0110' } },
  { n: 36, name: 'Magnesium', type: 'biomarker', description: 'Electrolyte; muscle and nerve function.', results: ['magnesium'], price: 12, tat: [1, 3], codes: { labcorp: '001537' } },
  { n: 37, name: 'Hemoglobin', type: 'biomarker', description: 'Oxygen-carrying protein of red cells.', results: ['hgb'], price: 9, tat: [1, 2], codes: ALL('510', '005025', 'H0110', '510') },
  { n: 38, name: 'Hematocrit', type: 'biomarker', description: 'Share of blood volume made of red cells; reported with a CBC.', results: ['hct'], price: 9, tat: [1, 2], aLaCarte: false, codes: { labcorp: '005074' } },
  { n: 39, name: 'White Blood Cell Count', type: 'biomarker', description: 'Leukocyte count; infection and immune status.', results: ['wbc'], price: 9, tat: [1, 2], codes: { sonora_quest: '6447' } },
  { n: 40, name: 'Platelet Count', type: 'biomarker', description: 'Platelets; clotting.', results: ['plt'], price: 9, tat: [1, 2], codes: { bioreference: 'P0110' } },
  { n: 41, name: 'Red Blood Cell Count', type: 'biomarker', description: 'Erythrocyte count.', results: ['rbc'], price: 9, tat: [1, 2], codes: { bioreference: 'R0110' } },
  { n: 42, name: 'DHEA Sulfate', type: 'biomarker', description: 'Adrenal androgen.', results: ['dheas'], price: 36, tat: [2, 5], codes: { labcorp: '004020' } },
  { n: 43, name: 'Apolipoprotein B', type: 'biomarker', description: 'Number of atherogenic lipoprotein particles.', results: ['apob'], price: 38, tat: [2, 5], codes: { quest: '7024', labcorp: '167015' } },
  { n: 44, name: 'Lipoprotein (a)', type: 'biomarker', description: 'Inherited cardiovascular risk factor.', results: ['lpa'], price: 42, tat: [3, 7], codes: { quest: '34604', labcorp: '120188' } },
  { n: 46, name: 'HIV-1/2 Antigen and Antibodies, 4th Gen', type: 'biomarker', description: 'Screens for HIV infection (antibodies and p24 antigen).', results: ['hivScreen'], price: 32, tat: [1, 3], codes: { quest: '91431', labcorp: '083935', sonora_quest: '91431' } },
  { n: 47, name: 'Hepatitis C Antibody', type: 'biomarker', description: 'Screens for past or present hepatitis C infection.', results: ['hcvAb'], price: 30, tat: [1, 3], codes: { quest: '8472', labcorp: '140659', bioreference: 'H0470' } },
  { n: 48, name: 'RPR (Syphilis Screen)', type: 'biomarker', description: 'Screens for syphilis; reactive results are confirmed.', results: ['rpr'], price: 18, tat: [1, 3], codes: { quest: '799', labcorp: '012005' } },
  { n: 45, name: 'GGT', type: 'biomarker', description: 'Gamma-glutamyl transferase; liver and bile ducts.', results: ['ggt'], price: 12, tat: [1, 3], codes: { bioreference: 'G0210', sonora_quest: '482' } },

  // Panels
  {
    n: 101,
    name: 'CBC with Differential/Platelet',
    type: 'panel',
    description: 'Complete blood count: red and white cells, hemoglobin, platelets and the white-cell differential.',
    results: ['wbc', 'rbc', 'hgb', 'hct', 'mcv', 'mch', 'mchc', 'rdw', 'plt', 'neutPct', 'lymphPct', 'monoPct', 'eosPct', 'basoPct', 'neutAbs', 'lymphAbs', 'monoAbs', 'eosAbs', 'basoAbs'],
    price: 19,
    tat: [1, 2],
    codes: ALL('6399', '005009', 'H0100', '6399'),
  },
  {
    n: 102,
    name: 'Comprehensive Metabolic Panel',
    type: 'panel',
    description: 'Glucose, kidney and liver function, electrolytes and proteins (14 tests).',
    results: ['glucose', 'bun', 'creatinine', 'egfr', 'bunCreat', 'sodium', 'potassium', 'chloride', 'co2', 'calcium', 'protein', 'albumin', 'globulin', 'agRatio', 'bili', 'alp', 'ast', 'alt'],
    price: 24,
    tat: [1, 2],
    aoe: 'fasting',
    codes: ALL('10231', '322000', 'C0800', '10231'),
  },
  {
    n: 103,
    name: 'Basic Metabolic Panel',
    type: 'panel',
    description: 'Glucose, kidney function and electrolytes (8 tests).',
    results: ['glucose', 'bun', 'creatinine', 'egfr', 'bunCreat', 'sodium', 'potassium', 'chloride', 'co2', 'calcium'],
    price: 18,
    tat: [1, 2],
    codes: ALL('10165', '322758', 'C0700', '10165'),
  },
  {
    n: 104,
    name: 'Lipid Panel',
    type: 'panel',
    description: 'Total, HDL and LDL cholesterol and triglycerides, with ratios.',
    results: ['chol', 'hdl', 'trig', 'ldl', 'cholHdl', 'nonHdl'],
    price: 28,
    tat: [1, 2],
    aoe: 'fasting',
    codes: ALL('7600', '303756', 'L0100', '7600'),
  },
  {
    n: 105,
    name: 'Hepatic Function Panel',
    type: 'panel',
    description: 'Liver enzymes, bilirubin and proteins.',
    results: ['protein', 'albumin', 'globulin', 'agRatio', 'bili', 'biliDirect', 'alp', 'ast', 'alt'],
    price: 22,
    tat: [1, 2],
    codes: { quest: '10256', labcorp: '322755', bioreference: 'L0900' },
  },
  {
    n: 106,
    name: 'Thyroid Panel with TSH',
    type: 'panel',
    description: 'TSH, total T4, T3 uptake and the free thyroxine index.',
    results: ['tsh', 't4', 't3uptake', 'fti'],
    price: 39,
    tat: [1, 3],
    codes: ALL('7444', '000620', 'T0800', '7444'),
  },
  {
    n: 107,
    name: 'Iron and Total Iron Binding Capacity',
    type: 'panel',
    description: 'Serum iron, iron binding capacity and transferrin saturation.',
    results: ['iron', 'tibc', 'ironSat'],
    price: 26,
    tat: [1, 3],
    codes: { quest: '7573TIBC', labcorp: '001321', bioreference: 'I0200' },
  },
];

/** Each lab's prices relative to the list price. */
const PRICE_FACTOR: Record<LabSlug, number> = { quest: 1, labcorp: 0.95, bioreference: 0.9, sonora_quest: 0.85 };

// ---------------------------------------------------------------------------------------------
// Shared lab tests (team_id null): orderable bundles of markers, per lab.

interface LabTestDefinition {
  lab: LabSlug;
  name: string;
  /** Marker definitions (their `n`). */
  markers: number[];
  method: 'testkit' | 'walk_in_test' | 'at_home_phlebotomy' | 'on_site_collection';
  sampleType: string;
  price: number;
  fasting: boolean;
  tat: [common: number, worstCase: number];
}

export const LAB_TEST_DEFINITIONS: readonly LabTestDefinition[] = [
  { lab: 'quest', name: 'Essential Metabolic Health', markers: [102, 104, 2], method: 'walk_in_test', sampleType: 'serum', price: 59, fasting: true, tat: [2, 4] },
  { lab: 'quest', name: 'Thyroid Check', markers: [3, 4], method: 'testkit', sampleType: 'dried_blood_spot', price: 49, fasting: false, tat: [3, 7] },
  { lab: 'quest', name: 'Lipid Panel', markers: [104], method: 'at_home_phlebotomy', sampleType: 'serum', price: 35, fasting: true, tat: [1, 3] },
  { lab: 'quest', name: 'Annual Wellness', markers: [101, 102, 104, 3, 2, 6], method: 'walk_in_test', sampleType: 'serum', price: 129, fasting: true, tat: [2, 5] },
  { lab: 'quest', name: "Men's Health", markers: [30, 31, 32, 101], method: 'at_home_phlebotomy', sampleType: 'serum', price: 119, fasting: false, tat: [2, 5] },
  { lab: 'quest', name: 'Iron Status', markers: [107, 7], method: 'walk_in_test', sampleType: 'serum', price: 45, fasting: false, tat: [1, 3] },
  { lab: 'labcorp', name: 'Essential Metabolic Health', markers: [102, 104, 2], method: 'walk_in_test', sampleType: 'serum', price: 55, fasting: true, tat: [2, 4] },
  { lab: 'labcorp', name: 'Thyroid Check', markers: [3, 4, 5], method: 'at_home_phlebotomy', sampleType: 'serum', price: 65, fasting: false, tat: [1, 3] },
  { lab: 'labcorp', name: 'Heart Health', markers: [104, 29, 2], method: 'testkit', sampleType: 'arm_collector', price: 79, fasting: false, tat: [3, 7] },
  { lab: 'labcorp', name: 'Annual Wellness', markers: [101, 102, 104, 3, 2, 6], method: 'at_home_phlebotomy', sampleType: 'serum', price: 125, fasting: true, tat: [2, 5] },
  { lab: 'labcorp', name: 'Sexual Health Screen', markers: [46, 47, 48], method: 'walk_in_test', sampleType: 'serum', price: 89, fasting: false, tat: [1, 3] },
  { lab: 'labcorp', name: "Women's Health", markers: [31, 3, 7, 6, 101], method: 'walk_in_test', sampleType: 'serum', price: 115, fasting: false, tat: [2, 5] },
  { lab: 'bioreference', name: 'Essential Metabolic Health', markers: [102, 104, 2], method: 'walk_in_test', sampleType: 'serum', price: 52, fasting: true, tat: [2, 4] },
  { lab: 'bioreference', name: 'Thyroid Check', markers: [3, 4], method: 'walk_in_test', sampleType: 'serum', price: 42, fasting: false, tat: [1, 3] },
  { lab: 'bioreference', name: 'Annual Wellness', markers: [101, 102, 104, 3, 2, 6], method: 'at_home_phlebotomy', sampleType: 'serum', price: 119, fasting: true, tat: [2, 5] },
  { lab: 'bioreference', name: 'Workplace Wellness Screen', markers: [103, 104, 2], method: 'on_site_collection', sampleType: 'serum', price: 45, fasting: true, tat: [2, 4] },
  { lab: 'sonora_quest', name: 'Essential Metabolic Health', markers: [102, 104, 2], method: 'walk_in_test', sampleType: 'serum', price: 49, fasting: true, tat: [2, 4] },
  { lab: 'sonora_quest', name: 'Lipid Panel', markers: [104], method: 'walk_in_test', sampleType: 'serum', price: 29, fasting: true, tat: [1, 3] },
  { lab: 'sonora_quest', name: 'Thyroid Check', markers: [3, 4], method: 'at_home_phlebotomy', sampleType: 'serum', price: 45, fasting: false, tat: [1, 3] },
  { lab: 'sonora_quest', name: 'Annual Wellness', markers: [101, 102, 104, 3, 2, 6], method: 'walk_in_test', sampleType: 'serum', price: 109, fasting: true, tat: [2, 5] },
];

// ---------------------------------------------------------------------------------------------
// Building rows from the definitions.

export const slugify = (s: string) =>
  s
    .toLowerCase()
    .replace(/'/g, '')
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');

export const markerId = (labId: number, n: number) => labId * 1000 + n;

/** LOINC codes are unique, so the digits make a stable numeric id (2345-7 → 23457). */
const loincId = (code: string) => Number(code.replace('-', ''));

/** A stable uuid (version 5 layout) for a shared lab test, derived from its slug. */
export function sharedLabTestId(slug: string): string {
  const h = createHash('sha1').update(`labdesk:lab_test:${slug}`).digest();
  h[6] = (h[6]! & 0x0f) | 0x50;
  h[8] = (h[8]! & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

function aoeFor(kind: AoeKind | undefined, id: number) {
  if (!kind) return null;
  const q = (k: number) => id * 10 + k;
  const yesNo = (qid: number) => [
    { id: qid * 10 + 1, code: 'Y', value: 'Yes' },
    { id: qid * 10 + 2, code: 'N', value: 'No' },
  ];
  switch (kind) {
    case 'fasting':
      return {
        questions: [
          {
            id: q(1),
            required: true,
            code: 'FASTING',
            value: 'Is the patient fasting (nothing but water for 8 to 12 hours)?',
            type: 'choice',
            sequence: 1,
            answers: yesNo(q(1)),
            default: 'N',
          },
        ],
      };
    case 'collection_time':
      return {
        questions: [
          {
            id: q(1),
            required: true,
            code: 'COLLTIME',
            value: 'Time of specimen collection (24-hour clock, HH:MM)',
            type: 'text',
            sequence: 1,
            answers: [],
            constraint: '^([01][0-9]|2[0-3]):[0-5][0-9]$',
          },
        ],
      };
    case 'psa':
      return {
        questions: [
          { id: q(1), required: true, code: 'PSASCRN', value: 'Is this a screening PSA?', type: 'choice', sequence: 1, answers: yesNo(q(1)) },
          {
            id: q(2),
            required: false,
            code: 'PSAMEDS',
            value: 'Medications that lower PSA',
            type: 'multi_choice',
            sequence: 2,
            answers: [
              { id: q(2) * 10 + 1, code: 'FINASTERIDE', value: 'Finasteride' },
              { id: q(2) * 10 + 2, code: 'DUTASTERIDE', value: 'Dutasteride' },
              { id: q(2) * 10 + 3, code: 'NONE', value: 'None' },
            ],
          },
        ],
      };
  }
}

type MarkerInsert = typeof markers.$inferInsert;
type LabTestInsert = typeof labTests.$inferInsert;

export function catalogueMarkerRows(): MarkerInsert[] {
  const rows: MarkerInsert[] = [];
  for (const lab of LAB_DEFINITIONS) {
    for (const def of MARKER_DEFINITIONS) {
      const code = def.codes[lab.slug];
      if (!code) continue;
      const id = markerId(lab.id, def.n);
      const results = def.resultsByLab?.[lab.slug] ?? def.results;
      const expectedResults = results.map((key, i) => {
        const r: ResultDefinition = R[key];
        return {
          id: id * 100 + i + 1,
          name: r.label,
          slug: slugify(r.label),
          lab_id: lab.id,
          provider_id: results.length === 1 ? code : `${code}-${String(i + 1).padStart(2, '0')}`,
          // A test's only result is always required; calculated ones inside a panel are not.
          required: results.length === 1 || !r.optional,
          loinc: { id: loincId(r.loinc), name: r.loincName, slug: slugify(r.label), code: r.loinc, unit: r.unit },
        };
      });
      const firstUnit = R[results[0]!].unit;
      rows.push({
        id,
        labId: lab.id,
        name: def.name,
        slug: slugify(def.name),
        description: def.description,
        providerId: code,
        type: def.type,
        unit: def.type === 'biomarker' ? firstUnit : null,
        price: (Math.round(def.price * PRICE_FACTOR[lab.slug] * 100) / 100).toFixed(2),
        aLaCarteEnabled: def.aLaCarte ?? true,
        isOrderable: true,
        commonTatDays: def.tat[0],
        worstCaseTatDays: def.tat[1],
        aoe: aoeFor(def.aoe, id),
        expectedResults,
      });
    }
  }
  return rows;
}

export function catalogueLabTestRows(): LabTestInsert[] {
  const offered = new Set(catalogueMarkerRows().map((m) => m.id));
  return LAB_TEST_DEFINITIONS.map((t) => {
    const lab = LAB_DEFINITIONS.find((l) => l.slug === t.lab)!;
    const markerIds = t.markers.map((n) => markerId(lab.id, n));
    for (const id of markerIds) {
      if (!offered.has(id)) throw new Error(`lab catalogue: ${t.lab} "${t.name}" uses marker ${id}, which ${t.lab} does not offer`);
    }
    if (!lab.collectionMethods.includes(t.method)) throw new Error(`lab catalogue: ${t.lab} does not collect by ${t.method}`);
    const slug = `${t.lab}_${slugify(t.name)}`;
    return {
      id: sharedLabTestId(slug),
      teamId: null,
      labId: lab.id,
      slug,
      name: t.name,
      sampleType: t.sampleType,
      method: t.method,
      price: t.price,
      status: 'active',
      fasting: t.fasting,
      markerIds,
      autoGenerated: false,
      isDelegated: false,
      commonTatDays: t.tat[0],
      worstCaseTatDays: t.tat[1],
    };
  });
}

/**
 * Brings the catalogue tables in step with the definitions above, in one transaction. Rows are
 * upserted by id, never deleted (orders keep referring to them): a marker dropped from the
 * definitions stops being orderable, a shared lab test dropped from them becomes inactive.
 */
export async function syncLabCatalogue(db: Db): Promise<void> {
  const markerRows = catalogueMarkerRows();
  const testRows = catalogueLabTestRows();
  const ex = (column: string) => sql.raw(`excluded.${column}`);
  await db.transaction(async (tx) => {
    await tx
      .insert(labs)
      .values(LAB_DEFINITIONS.map((l) => ({ ...l })))
      .onConflictDoUpdate({
        target: labs.id,
        set: {
          slug: ex('slug'),
          name: ex('name'),
          firstLineAddress: ex('first_line_address'),
          city: ex('city'),
          zipcode: ex('zipcode'),
          collectionMethods: ex('collection_methods'),
          sampleTypes: ex('sample_types'),
        },
      });
    await tx
      .insert(markers)
      .values(markerRows)
      .onConflictDoUpdate({
        target: markers.id,
        set: {
          labId: ex('lab_id'),
          name: ex('name'),
          slug: ex('slug'),
          description: ex('description'),
          providerId: ex('provider_id'),
          type: ex('type'),
          unit: ex('unit'),
          price: ex('price'),
          aLaCarteEnabled: ex('a_la_carte_enabled'),
          isOrderable: ex('is_orderable'),
          commonTatDays: ex('common_tat_days'),
          worstCaseTatDays: ex('worst_case_tat_days'),
          aoe: ex('aoe'),
          expectedResults: ex('expected_results'),
        },
      });
    await tx
      .update(markers)
      .set({ isOrderable: false })
      .where(
        notInArray(
          markers.id,
          markerRows.map((m) => m.id),
        ),
      );
    await tx
      .insert(labTests)
      .values(testRows)
      .onConflictDoUpdate({
        target: labTests.id,
        set: {
          labId: ex('lab_id'),
          slug: ex('slug'),
          name: ex('name'),
          sampleType: ex('sample_type'),
          method: ex('method'),
          price: ex('price'),
          status: ex('status'),
          fasting: ex('fasting'),
          markerIds: ex('marker_ids'),
          commonTatDays: ex('common_tat_days'),
          worstCaseTatDays: ex('worst_case_tat_days'),
          // Only a real change moves updated_at, so a restart does not touch every shared test.
          updatedAt: sql`CASE WHEN (${labTests.name}, ${labTests.method}, ${labTests.price}, ${labTests.status}, ${labTests.markerIds}, ${labTests.fasting}, ${labTests.sampleType}) IS DISTINCT FROM (excluded.name, excluded.method, excluded.price, excluded.status, excluded.marker_ids, excluded.fasting, excluded.sample_type) THEN now() ELSE ${labTests.updatedAt} END`,
        },
      });
    await tx
      .update(labTests)
      .set({ status: 'inactive', updatedAt: new Date() })
      .where(
        and(
          isNull(labTests.teamId),
          notInArray(
            labTests.id,
            testRows.map((t) => t.id!),
          ),
          eq(labTests.status, 'active'),
        ),
      );
    await announceCatalogueChange(tx);
  });
  forgetCatalogue(db);
}

// ---------------------------------------------------------------------------------------------
// The demo team's lab accounts.

const ALL_STATES: string[] = US_STATES.filter((s) => s !== 'PR');
/** States where direct-to-consumer or client-billed testing is restricted. */
const RESTRICTED = ['NY', 'NJ', 'RI'];
const except = (states: string[], excluded: string[]) => states.filter((s) => !excluded.includes(s));

type AccountInsert = Omit<typeof labAccounts.$inferInsert, 'teamId'>;

export const DEMO_LAB_ACCOUNTS: readonly AccountInsert[] = [
  {
    labSlug: 'quest',
    status: 'active',
    delegatedFlow: 'not_delegated',
    providerAccountId: '97512046',
    accountName: 'Demo Health Quest Client Bill',
    orgId: 'org_demo_health',
    defaultClinicalNotes: 'Fasting specimens preferred. Call 555-0100 with critical values.',
    businessUnits: ['QTE', 'QSO'],
    allowedBilling: {
      client_bill: except(ALL_STATES, RESTRICTED),
      commercial_insurance: ['AZ', 'CA', 'CO', 'FL', 'GA', 'IL', 'MA', 'MD', 'MI', 'NC', 'OH', 'PA', 'TX', 'VA', 'WA'],
      patient_bill: except(ALL_STATES, [...RESTRICTED, 'MD']),
    },
  },
  {
    labSlug: 'labcorp',
    status: 'active',
    delegatedFlow: 'order_delegated',
    providerAccountId: '30184472',
    accountName: 'Demo Health Labcorp',
    orgId: 'org_demo_health',
    defaultClinicalNotes: 'Include ICD-10 codes on every requisition. Critical values to the on-call clinician at 555-0142.',
    businessUnits: ['LCA-Burlington'],
    allowedBilling: {
      client_bill: except(ALL_STATES, [...RESTRICTED, 'HI']),
      commercial_insurance: ['AL', 'CA', 'FL', 'GA', 'IL', 'IN', 'KY', 'MO', 'NC', 'OH', 'SC', 'TN', 'TX', 'VA'],
      patient_bill_passthrough: except(ALL_STATES, [...RESTRICTED, 'HI', 'AK']),
    },
  },
  {
    labSlug: 'bioreference',
    status: 'active',
    delegatedFlow: 'not_delegated',
    providerAccountId: 'BRL-204187',
    accountName: 'Demo Health BioReference East',
    orgId: 'org_demo_health',
    defaultClinicalNotes: null,
    businessUnits: null,
    allowedBilling: {
      client_bill: ['NY', 'NJ', 'CT', 'PA', 'FL'],
      commercial_insurance: ['NY', 'NJ'],
    },
  },
  {
    labSlug: 'sonora_quest',
    status: 'pending',
    delegatedFlow: 'result_delegated',
    providerAccountId: 'SQ-41872',
    accountName: 'Demo Health Sonora Quest (onboarding)',
    orgId: 'org_demo_health',
    defaultClinicalNotes: 'Arizona patients: walk-in collection at Sonora Quest patient service centers.',
    businessUnits: null,
    allowedBilling: {
      client_bill: ['AZ', 'NV', 'NM'],
      commercial_insurance: ['AZ'],
    },
  },
];

/**
 * Gives a team one lab account per lab (Sonora Quest still pending) when it has none yet. Safe to
 * call at every start and from several processes: the team's row is locked while checking.
 * Returns how many accounts were created.
 */
export async function ensureDemoLabAccounts(db: Db, teamId: string): Promise<number> {
  return db.transaction(async (tx) => {
    const team = await tx.select({ id: teams.id }).from(teams).where(eq(teams.id, teamId)).for('update');
    if (team.length === 0) return 0;
    const existing = await tx.select({ id: labAccounts.id }).from(labAccounts).where(eq(labAccounts.teamId, teamId)).limit(1);
    if (existing.length > 0) return 0;
    const base = Date.now();
    await tx.insert(labAccounts).values(
      // Staggered creation times keep the listing in lab order.
      DEMO_LAB_ACCOUNTS.map((a, i) => ({ ...a, teamId, createdAt: new Date(base + i) })),
    );
    return DEMO_LAB_ACCOUNTS.length;
  });
}

/** At service start: sync the catalogue, then make sure the demo team (if any) has its lab accounts. */
export async function startLabCatalogue(db: Db): Promise<void> {
  await syncLabCatalogue(db);
  const [demo] = await db.select().from(settings).where(eq(settings.key, 'demo_team_id')).orderBy(asc(settings.key));
  if (demo) await ensureDemoLabAccounts(db, demo.value);
}
