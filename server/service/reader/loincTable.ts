/**
 * A curated table of the analytes US lab reports print most (chemistry, CBC with differential,
 * lipids, thyroid, diabetes, iron, vitamins, hormones, coagulation, urinalysis, serology): the
 * LOINC code and long common name, the names and abbreviations labs print, the units they use
 * and, per unit, the span of values a living patient can have.
 *
 * Contains content from LOINC® (http://loinc.org); see LOINC-NOTICE.md beside this file.
 *
 * `plausible` is deliberately wide (it is not a reference range): it exists to catch a value
 * that is off by a factor of ten, the typical OCR failure of a dropped decimal point
 * (potassium 4.5 read as 45). `decimals` is how many decimals labs print for that unit when they
 * agree on one; a value printed with none where one or more is usual is another sign of a lost
 * point. Both are left out where labs disagree.
 */

import { GERMAN_NAMES } from './germanNames';
import { SPANISH_NAMES } from './spanishNames';

export interface UnitSpec {
  /** Spellings of one unit; the first is the canonical one the parser reports. */
  units: string[];
  plausible?: [number, number];
  decimals?: number;
  /**
   * LOINC codes a property, not an analyte: glucose in mmol/L is "Glucose [Moles/volume]"
   * (15074-8), not the mg/dL row's "[Mass/volume]" (2345-7). The code and long name for this unit
   * when it measures another property than the analyte's own code.
   */
  loinc?: { code: string; name: string };
}

/** Where the sample comes from: urine and blood analytes share names; swabs are for infections (NAA tests). */
export type Specimen = 'blood' | 'urine' | 'swab';

export interface Analyte {
  code: string;
  /** The LOINC long common name. */
  name: string;
  /** The short name a reviewer expects. */
  display: string;
  /** Names and abbreviations printed on reports (the display name is always one of them). */
  aliases: string[];
  /** Accepted units; an empty list means the result has no unit (pH, specific gravity, qualitative). */
  units: UnitSpec[];
  specimen: Specimen;
  /** Reported as words (Negative, Reactive, Yellow...) rather than numbers, or either. */
  results: 'quantitative' | 'qualitative' | 'either';
}

// Unit spellings shared by many analytes.
const K_UL = ['x10E3/uL', '/nl', 'miles/uL', 'miles/mm3', 'Thousand/uL', 'K/uL', '10^3/uL', '10*3/uL', 'x10^3/uL', 'x10(3)/uL', '10E3/uL', 'x10E9/L', '10^9/L', '10*9/L', 'x10^9/L', 'x10*9/L', 'x10(9)/L', '×10^9/L', '×10⁹/L', 'x 10^9/L', 'G/L', 'thou/mm3', 'thou/uL', 'thou/cumm'];
const M_UL = ['x10E6/uL', '/pl', 'millones/uL', 'millones/mm3', 'Million/uL', 'M/uL', '10^6/uL', '10*6/uL', 'x10^6/uL', 'x10(6)/uL', '10E6/uL', 'x10E12/L', '10^12/L', 'x10^12/L', 'x10*12/L', 'x10(12)/L', '×10^12/L', '×10¹²/L', 'x 10^12/L', 'T/L', 'mill/mm3', 'mill/uL', 'mill/cumm'];
const U_L = ['IU/L', 'U/L'];
const MMOL = ['mmol/L', 'mEq/L'];
/** Cells per microlitre, as labs spell it: a cubic millimetre is a microlitre ("/cumm" on Indian reports). */
const PER_UL = ['cells/uL', '/uL', '/cumm', 'cells/cumm', '/mm3', 'cells/mm3'];
/** Platelets in lakhs (100,000) per microlitre, as Indian labs print them: 2.45 lakhs/cumm is 245 x10E3/uL. */
const LAKH_UL = ['lakhs/cumm', 'lakh/cumm', 'lakhs/uL', 'lakhs/mm3'];
const UG_DL = ['ug/dL', 'mcg/dL'];
const RATIO = ['', 'ratio', '(calc)'];
const HPF = ['/hpf', '/HPF', 'cells/hpf', '#/hpf'];
const EGFR_UNITS = ['mL/min/1.73', 'mL/min/1.73m2', 'mL/min/1.73 m2', 'mL/min/{1.73_m2}', 'mL/min'];

const u = (units: string[], plausible?: [number, number], decimals?: number, loinc?: [code: string, name: string]): UnitSpec =>
  loinc ? { units, plausible, decimals, loinc: { code: loinc[0], name: loinc[1] } } : { units, plausible, decimals };

type Row = [code: string, name: string, display: string, aliases: string[], units: UnitSpec[], results?: Analyte['results']];

function group(specimen: Specimen, rows: Row[]): Analyte[] {
  return rows.map(([code, name, display, aliases, units, results]) => ({
    code,
    name,
    display,
    aliases: aliases.includes(display) ? aliases : [display, ...aliases],
    units,
    specimen,
    results: results ?? 'quantitative',
  }));
}

const chemistry = group('blood', [
  ['2345-7', 'Glucose [Mass/volume] in Serum or Plasma', 'Glucose', ['Glucose, Serum', 'Glucose, Plasma', 'Glucose Fasting', 'Fasting Glucose', 'Glucose, Fasting', 'GLU', 'Blood Glucose'], [u(['mg/dL'], [10, 2000], 0), u(['mmol/L'], [0.5, 110], 1, ['15074-8', 'Glucose [Moles/volume] in Serum or Plasma'])]],
  ['22664-7', 'Urea [Moles/volume] in Serum or Plasma', 'Urea', ['Urea, Serum', 'Serum Urea', 'Urea (serum)'], [u(['mmol/L'], [0.5, 100], 1), u(['mg/dL'], [3, 600], 0, ['3091-6', 'Urea [Mass/volume] in Serum or Plasma'])]],
  ['3094-0', 'Urea nitrogen [Mass/volume] in Serum or Plasma', 'BUN', ['Urea Nitrogen', 'Urea Nitrogen (BUN)', 'Blood Urea Nitrogen', 'Urea Nitrogen, Blood', 'BUN, Serum'], [u(['mg/dL'], [1, 300], 0), u(['mmol/L'], [0.3, 110], 1, ['14937-7', 'Urea nitrogen [Moles/volume] in Serum or Plasma'])]],
  ['2160-0', 'Creatinine [Mass/volume] in Serum or Plasma', 'Creatinine', ['CRE', 'Creatinine, Serum', 'Creat', 'CREA'], [u(['mg/dL'], [0.1, 30], 2), u(['umol/L'], [10, 2600], 0, ['14682-9', 'Creatinine [Moles/volume] in Serum or Plasma'])]],
  ['98979-8', 'Glomerular filtration rate/1.73 sq M.predicted [Volume Rate/Area] in Serum, Plasma or Blood by Creatinine-based formula (CKD-EPI 2021)', 'eGFR', ['Estimated GFR', 'Estimated Glomerular Filtration Rate', 'eGFR (CKD-EPI 2021)', 'GFR, Estimated', 'eGFR CKD-EPI', 'Glomerular Filtration Rate, Estimated'], [u(EGFR_UNITS, [1, 200], 0)]],
  ['3097-3', 'Urea nitrogen/Creatinine [Mass Ratio] in Serum or Plasma', 'BUN/Creatinine Ratio', ['BUN/Creat Ratio', 'Urea Nitrogen/Creatinine Ratio', 'BUN/Creatinine'], [u(RATIO, [1, 100], 0)]],
  ['2951-2', 'Sodium [Moles/volume] in Serum or Plasma', 'Sodium', ['NA+', 'Na', 'Sodium, Serum'], [u(MMOL, [90, 200], 0)]],
  ['2823-3', 'Potassium [Moles/volume] in Serum or Plasma', 'Potassium', ['K+', 'K', 'Potassium, Serum'], [u(MMOL, [1, 10], 1)]],
  ['2075-0', 'Chloride [Moles/volume] in Serum or Plasma', 'Chloride', ['Cl', 'Chloride, Serum'], [u(MMOL, [60, 150], 0)]],
  ['2028-9', 'Carbon dioxide, total [Moles/volume] in Serum or Plasma', 'Carbon Dioxide, Total', ['tCO2', 'Carbon Dioxide', 'CO2', 'Total CO2', 'Bicarbonate', 'CO2, Total'], [u(MMOL, [3, 60], 0)]],
  ['17861-6', 'Calcium [Mass/volume] in Serum or Plasma', 'Calcium', ['Ca', 'Calcium, Serum', 'Calcium, Total'], [u(['mg/dL'], [3, 20], 1), u(['mmol/L'], [0.7, 5], 2, ['2000-8', 'Calcium [Moles/volume] in Serum or Plasma'])]],
  ['2885-2', 'Protein [Mass/volume] in Serum or Plasma', 'Protein, Total', ['T Prot', 'TP', 'Total Protein', 'Protein Total', 'Protein, Total, Serum', 'Protein'], [u(['g/dL'], [2, 15], 1), u(['g/L'], [20, 150], 0)]],
  ['1751-7', 'Albumin [Mass/volume] in Serum or Plasma', 'Albumin', ['Albumin, Serum', 'ALB'], [u(['g/dL'], [1, 7], 1), u(['g/L'], [10, 70], 0)]],
  ['10834-0', 'Globulin [Mass/volume] in Serum by calculation', 'Globulin, Total', ['Globulin', 'Globulin (calc)'], [u(['g/dL'], [0.5, 10], 1), u(['g/L'], [5, 100], 0)]],
  ['1759-0', 'Albumin/Globulin [Mass Ratio] in Serum or Plasma', 'A/G Ratio', ['Albumin/Globulin Ratio', 'A/G', 'Albumin/Globulin'], [u(RATIO, [0.1, 6], 1)]],
  ['1975-2', 'Bilirubin.total [Mass/volume] in Serum or Plasma', 'Bilirubin, Total', ['T Bili', 'TBIL', 'Total Bilirubin', 'Bilirubin Total', 'Bilirubin'], [u(['mg/dL'], [0.05, 50], 1), u(['umol/L'], [1, 850], 0, ['14631-6', 'Bilirubin.total [Moles/volume] in Serum or Plasma'])]],
  ['1968-7', 'Bilirubin.direct [Mass/volume] in Serum or Plasma', 'Bilirubin, Direct', ['DBIL', 'Direct Bilirubin', 'Bilirubin Direct', 'Bilirubin, Conjugated'], [u(['mg/dL'], [0, 30], 2), u(['umol/L'], [0, 500], 0, ['14629-0', 'Bilirubin.direct [Moles/volume] in Serum or Plasma'])]],
  ['6768-6', 'Alkaline phosphatase [Enzymatic activity/volume] in Serum or Plasma', 'Alkaline Phosphatase', ['Alk Phos', 'ALP', 'Alkaline Phosphatase, S', 'Alk Phosphatase'], [u(U_L, [5, 3000], 0)]],
  ['1920-8', 'Aspartate aminotransferase [Enzymatic activity/volume] in Serum or Plasma', 'AST', ['AST (SGOT)', 'SGOT', 'Aspartate Aminotransferase', 'AST/SGOT', 'SGOT (AST)', 'Aspartate Transaminase'], [u(U_L, [2, 20000], 0)]],
  ['1742-6', 'Alanine aminotransferase [Enzymatic activity/volume] in Serum or Plasma', 'ALT', ['ALT (SGPT)', 'SGPT', 'Alanine Aminotransferase', 'ALT/SGPT', 'SGPT (ALT)', 'Alanine Transaminase'], [u(U_L, [2, 20000], 0)]],
  ['2324-2', 'Gamma glutamyl transferase [Enzymatic activity/volume] in Serum or Plasma', 'GGT', ['Gamma-Glutamyl Transferase', 'Gamma GT', 'GGTP', 'Gamma-Glutamyltransferase'], [u(U_L, [2, 5000], 0)]],
  ['2532-0', 'Lactate dehydrogenase [Enzymatic activity/volume] in Serum or Plasma', 'LDH', ['LD', 'Lactate Dehydrogenase', 'LDH, Total'], [u(U_L, [20, 10000], 0)]],
  ['3084-1', 'Urate [Mass/volume] in Serum or Plasma', 'Uric Acid', ['Urate', 'Uric Acid, Serum'], [u(['mg/dL'], [0.5, 25], 1), u(['umol/L'], [30, 1500], 0, ['14933-6', 'Urate [Moles/volume] in Serum or Plasma'])]],
  ['2777-1', 'Phosphate [Mass/volume] in Serum or Plasma', 'Phosphorus', ['Phosphate', 'Phosphorus, Inorganic', 'Phosphorus, Serum'], [u(['mg/dL'], [0.5, 15], 1), u(['mmol/L'], [0.15, 5], 2, ['14879-1', 'Phosphate [Moles/volume] in Serum or Plasma'])]],
  ['19123-9', 'Magnesium [Mass/volume] in Serum or Plasma', 'Magnesium', ['Mg', 'Magnesium, Serum'], [u(['mg/dL'], [0.5, 10], 1), u(['mmol/L'], [0.2, 4], 2, ['2601-3', 'Magnesium [Moles/volume] in Serum or Plasma'])]],
  ['33037-3', 'Anion gap in Serum or Plasma', 'Anion Gap', ['Anion Gap (calc)'], [u(MMOL, [0, 50], 0)]],
  ['2157-6', 'Creatine kinase [Enzymatic activity/volume] in Serum or Plasma', 'Creatine Kinase', ['CK', 'CPK', 'Creatine Kinase, Total', 'CK, Total'], [u(U_L, [5, 200000], 0)]],
  ['1798-8', 'Amylase [Enzymatic activity/volume] in Serum or Plasma', 'Amylase', ['Amylase, Serum'], [u(U_L, [5, 10000], 0)]],
  ['3040-3', 'Lipase [Enzymatic activity/volume] in Serum or Plasma', 'Lipase', ['Lipase, Serum'], [u(U_L, [1, 20000], 0)]],
]);

const cbc = group('blood', [
  ['6690-2', 'Leukocytes [#/volume] in Blood by Automated count', 'WBC', ['White Blood Cell Count', 'White Blood Cells', 'WBC Count', 'Leukocytes', 'White Blood Count', 'White Cell Count', 'WCC', 'Total Leucocyte Count', 'Total Leukocyte Count', 'TLC', 'Leucocytes', 'Leucocyte Count', 'Leukocyte Count'], [u(K_UL, [0.1, 500], 1)]],
  ['789-8', 'Erythrocytes [#/volume] in Blood by Automated count', 'RBC', ['Red Blood Cell Count', 'Red Blood Cells', 'RBC Count', 'Erythrocytes', 'Red Cell Count', 'RCC'], [u(M_UL, [0.5, 10], 2)]],
  ['718-7', 'Hemoglobin [Mass/volume] in Blood', 'Hemoglobin', ['Hgb', 'HGB', 'Hb', 'Haemoglobin'], [u(['g/dL'], [2, 25], 1), u(['g/L'], [20, 250], 0)]],
  ['4544-3', 'Hematocrit [Volume Fraction] of Blood by Automated count', 'Hematocrit', ['Hct', 'HCT', 'Haematocrit', 'PCV', 'Packed Cell Volume'], [u(['%'], [8, 75], 1), u(['L/L'], [0.08, 0.75], 2)]],
  ['787-2', 'Erythrocyte mean corpuscular volume [Entitic volume] by Automated count', 'MCV', ['Mean Corpuscular Volume', 'Mean Cell Volume'], [u(['fL'], [40, 150])]],
  ['785-6', 'Erythrocyte mean corpuscular hemoglobin [Entitic mass] by Automated count', 'MCH', ['Mean Corpuscular Hemoglobin', 'Mean Cell Haemoglobin', 'Mean Corpuscular Haemoglobin'], [u(['pg'], [10, 50], 1)]],
  ['786-4', 'Erythrocyte mean corpuscular hemoglobin concentration [Mass/volume] by Automated count', 'MCHC', ['Mean Corpuscular Hemoglobin Concentration', 'Mean Corpuscular Haemoglobin Concentration', 'Mean Cell Haemoglobin Concentration'], [u(['g/dL'], [20, 45], 1), u(['g/L'], [200, 450], 0)]],
  ['788-0', 'Erythrocyte distribution width [Ratio] by Automated count', 'RDW', ['RDW-CV', 'Red Cell Distribution Width', 'RDW CV'], [u(['%'], [8, 40], 1)]],
  ['777-3', 'Platelets [#/volume] in Blood by Automated count', 'Platelets', ['Platelet Count', 'PLT'], [u(K_UL, [1, 3000], 0), u(LAKH_UL, [0.01, 30], 2)]],
  ['32623-1', 'Platelet mean volume [Entitic volume] in Blood by Automated count', 'MPV', ['Mean Platelet Volume'], [u(['fL'], [4, 20], 1)]],
  ['770-8', 'Neutrophils/100 leukocytes in Blood by Automated count', 'Neutrophils', ['Neut %', 'NEU%', 'Neutrophils %', 'Neutrophil %', 'Neuts', 'Neutrophils, Percent', 'Percent Neutrophils', 'Neutrophils (%)', 'Segmented Neutrophils'], [u(['%'], [0, 100])]],
  ['736-9', 'Lymphocytes/100 leukocytes in Blood by Automated count', 'Lymphs', ['Lymph %', 'LYM%', 'Lymphocytes', 'Lymphocytes %', 'Lymphocyte %', 'Lymphocytes, Percent', 'Percent Lymphocytes', 'Lymphocytes (%)'], [u(['%'], [0, 100])]],
  ['5905-5', 'Monocytes/100 leukocytes in Blood by Automated count', 'Monocytes', ['Mono %', 'MON%', 'Monos', 'Monocytes %', 'Monocyte %', 'Monocytes, Percent', 'Percent Monocytes', 'Monocytes (%)'], [u(['%'], [0, 100])]],
  ['713-8', 'Eosinophils/100 leukocytes in Blood by Automated count', 'Eos', ['Eos %', 'EOS%', 'Eosinophils', 'Eosinophils %', 'Eosinophil %', 'Eosinophils, Percent', 'Percent Eosinophils', 'Eosinophils (%)'], [u(['%'], [0, 100])]],
  ['706-2', 'Basophils/100 leukocytes in Blood by Automated count', 'Basos', ['Baso %', 'BAS%', 'Basophils', 'Basophils %', 'Basophil %', 'Basophils, Percent', 'Percent Basophils', 'Basophils (%)'], [u(['%'], [0, 100])]],
  ['751-8', 'Neutrophils [#/volume] in Blood by Automated count', 'Neutrophils (Absolute)', ['Neut #', 'NEU#', 'Absolute Neutrophils', 'Neutrophils, Absolute', 'Neutrophils Absolute', 'Absolute Neutrophil Count', 'ANC', 'Neutrophils #', 'Neuts (Absolute)', 'Neutrophils', 'Neutrophil Count'], [u(K_UL, [0, 100], 1), u(PER_UL, [0, 100000], 0)]],
  ['731-0', 'Lymphocytes [#/volume] in Blood by Automated count', 'Lymphs (Absolute)', ['Lymph #', 'LYM#', 'Absolute Lymphocytes', 'Lymphocytes, Absolute', 'Lymphocytes Absolute', 'Absolute Lymphocyte Count', 'Lymphocytes #', 'Lymphocytes (Absolute)', 'Lymphocytes', 'Lymphs', 'Lymphocyte Count'], [u(K_UL, [0, 400], 1), u(PER_UL, [0, 400000], 0)]],
  ['742-7', 'Monocytes [#/volume] in Blood by Automated count', 'Monocytes(Absolute)', ['Mono #', 'MON#', 'Absolute Monocytes', 'Monocytes, Absolute', 'Monocytes Absolute', 'Monocytes (Absolute)', 'Monocytes #', 'Monocytes', 'Monocyte Count', 'Absolute Monocyte Count'], [u(K_UL, [0, 50], 1), u(PER_UL, [0, 50000], 0)]],
  ['711-2', 'Eosinophils [#/volume] in Blood by Automated count', 'Eos (Absolute)', ['Eos #', 'EOS#', 'Absolute Eosinophils', 'Eosinophils, Absolute', 'Eosinophils Absolute', 'Eosinophils (Absolute)', 'Eosinophils #', 'Eosinophils', 'Eosinophil Count', 'Absolute Eosinophil Count'], [u(K_UL, [0, 50], 1), u(PER_UL, [0, 50000], 0)]],
  ['704-7', 'Basophils [#/volume] in Blood by Automated count', 'Baso (Absolute)', ['Baso #', 'BAS#', 'Absolute Basophils', 'Basophils, Absolute', 'Basophils Absolute', 'Basophils (Absolute)', 'Basophils #', 'Basos (Absolute)', 'Basophils', 'Basophil Count', 'Absolute Basophil Count'], [u(K_UL, [0, 20], 1), u(PER_UL, [0, 20000], 0)]],
]);

const lipids = group('blood', [
  ['2093-3', 'Cholesterol [Mass/volume] in Serum or Plasma', 'Cholesterol, Total', ['Total Cholesterol', 'Cholesterol', 'Cholesterol Total', 'CHOL'], [u(['mg/dL'], [40, 1500], 0), u(['mmol/L'], [1, 40], 1, ['14647-2', 'Cholesterol [Moles/volume] in Serum or Plasma'])]],
  ['2571-8', 'Triglyceride [Mass/volume] in Serum or Plasma', 'Triglycerides', ['Triglyceride', 'TRIG', 'TG'], [u(['mg/dL'], [10, 10000], 0), u(['mmol/L'], [0.1, 115], 2, ['14927-8', 'Triglyceride [Moles/volume] in Serum or Plasma'])]],
  ['2085-9', 'Cholesterol in HDL [Mass/volume] in Serum or Plasma', 'HDL Cholesterol', ['HDL', 'HDL-C', 'HDL Chol', 'HDL-Cholesterol', 'Cholesterol, HDL'], [u(['mg/dL'], [3, 200], 0), u(['mmol/L'], [0.1, 5], 2, ['14646-4', 'Cholesterol in HDL [Moles/volume] in Serum or Plasma'])]],
  ['13457-7', 'Cholesterol in LDL [Mass/volume] in Serum or Plasma by calculation', 'LDL Cholesterol Calc', ['LDL (calc)', 'LDL Chol Calc (NIH)', 'LDL Cholesterol', 'LDL-Cholesterol', 'LDL-C', 'LDL Calculated', 'LDL', 'Cholesterol, LDL', 'LDL Chol Calc'], [u(['mg/dL'], [1, 1000], 0), u(['mmol/L'], [0.05, 25], 2, ['39469-2', 'Cholesterol in LDL [Moles/volume] in Serum or Plasma by calculation'])]],
  ['18262-6', 'Cholesterol in LDL [Mass/volume] in Serum or Plasma by Direct assay', 'LDL Cholesterol, Direct', ['Direct LDL', 'LDL Direct', 'LDL-C, Direct'], [u(['mg/dL'], [1, 1000], 0)]],
  ['13458-5', 'Cholesterol in VLDL [Mass/volume] in Serum or Plasma by calculation', 'VLDL Cholesterol Cal', ['VLDL Cholesterol', 'VLDL Chol Calc', 'VLDL'], [u(['mg/dL'], [1, 1000], 0)]],
  ['9830-1', 'Cholesterol.total/Cholesterol in HDL [Mass Ratio] in Serum or Plasma', 'Chol/HDL Ratio', ['Chol/HDL', 'TC/H', 'TC/HDL', 'Cholesterol/HDL Ratio', 'Total Cholesterol/HDL Ratio', 'Chol/HDLC Ratio', 'T. Chol/HDL Ratio', 'Cholesterol/HDL'], [u(RATIO, [0.5, 40], 1)]],
  ['43396-1', 'Cholesterol non HDL [Mass/volume] in Serum or Plasma', 'Non-HDL Cholesterol', ['Non-HDL', 'nHDLc', 'Non HDL Cholesterol', 'Non-HDL-C', 'Cholesterol, Non-HDL'], [u(['mg/dL'], [10, 1500], 0)]],
  ['1884-6', 'Apolipoprotein B [Mass/volume] in Serum or Plasma', 'Apolipoprotein B', ['Apo B', 'ApoB', 'Apolipoprotein B-100'], [u(['mg/dL'], [10, 400], 0)]],
  ['10835-7', 'Lipoprotein a [Mass/volume] in Serum or Plasma', 'Lipoprotein (a)', ['Lipoprotein(a)', 'Lp(a)', 'Lipoprotein a'], [u(['mg/dL'], [0, 500], 1)]],
  ['43583-4', 'Lipoprotein a [Moles/volume] in Serum or Plasma', 'Lipoprotein (a)', ['Lipoprotein(a)', 'Lp(a)', 'Lipoprotein a'], [u(['nmol/L'], [0, 1200], 1)]],
]);

const endocrine = group('blood', [
  ['3016-3', 'Thyrotropin [Units/volume] in Serum or Plasma', 'TSH', ['Thyroid Stimulating Hormone', 'Thyrotropin', 'TSH, 3rd Generation', 'TSH, High Sensitivity', 'TSH, Ultrasensitive', 'Ultrasensitive TSH'], [u(['uIU/mL', 'mIU/L', 'mcIU/mL', 'uU/mL', 'mU/L'], [0.001, 500])]],
  ['3024-7', 'Thyroxine (T4) free [Mass/volume] in Serum or Plasma', 'Free T4', ['T4, Free', 'T4, Free (Direct)', 'Thyroxine, Free', 'FT4', 'Free Thyroxine', 'T4 Free'], [u(['ng/dL'], [0.05, 10], 2), u(['pmol/L'], [1, 130], 1, ['14920-3', 'Thyroxine (T4) free [Moles/volume] in Serum or Plasma'])]],
  ['3026-2', 'Thyroxine (T4) [Mass/volume] in Serum or Plasma', 'T4, Total', ['Thyroxine (T4)', 'T4 Total', 'Thyroxine, Total', 'Total T4'], [u(UG_DL, [0.5, 30], 1)]],
  ['3051-0', 'Triiodothyronine (T3) Free [Mass/volume] in Serum or Plasma', 'Free T3', ['T3, Free', 'Triiodothyronine, Free', 'FT3', 'Triiodothyronine (T3), Free', 'T3 Free'], [u(['pg/mL'], [0.5, 30], 1)]],
  ['3053-6', 'Triiodothyronine (T3) [Mass/volume] in Serum or Plasma', 'T3, Total', ['Triiodothyronine (T3)', 'T3 Total', 'Total T3', 'Triiodothyronine, Total'], [u(['ng/dL'], [20, 800], 0)]],
  ['8099-4', 'Thyroperoxidase Ab [Units/volume] in Serum or Plasma', 'Thyroid Peroxidase (TPO) Ab', ['TPO Antibodies', 'Thyroid Peroxidase Antibodies', 'Anti-TPO', 'TPO Ab', 'Thyroperoxidase Ab', 'Thyroid Peroxidase Ab', 'Thyroid Peroxidase Antibody', 'Anti-Thyroid Peroxidase'], [u(['IU/mL'], [0, 10000])]],
  ['8098-6', 'Thyroglobulin Ab [Units/volume] in Serum or Plasma', 'Thyroglobulin Antibody', ['Thyroglobulin Ab', 'Anti-Thyroglobulin Ab', 'Antithyroglobulin Ab'], [u(['IU/mL'], [0, 10000])]],
  ['4548-4', 'Hemoglobin A1c/Hemoglobin.total in Blood', 'Hemoglobin A1c', ['HbA1c', 'A1c', 'Hgb A1c', 'Glycohemoglobin', 'Glycated Hemoglobin', 'Hemoglobin A1C', 'HbA1c (IFCC)', 'Haemoglobin A1c', 'HbA1c (NGSP)', 'HbA1c (DCCT)'], [u(['%', '% of total Hgb'], [3, 20], 1), u(['mmol/mol'], [9, 200], 0, ['59261-8', 'Hemoglobin A1c/Hemoglobin.total in Blood by IFCC protocol'])]],
  ['27353-2', 'Glucose mean value [Mass/volume] in Blood Estimated from glycated hemoglobin', 'Estimated Average Glucose', ['eAG', 'Est. Average Glucose', 'Estimated Average Glucose (eAG)', 'Mean Plasma Glucose'], [u(['mg/dL'], [50, 600], 0)]],
  ['20448-7', 'Insulin [Units/volume] in Serum or Plasma', 'Insulin', ['Insulin, Fasting', 'Fasting Insulin'], [u(['uIU/mL', 'mIU/L'], [0.2, 2000], 1)]],
  ['2986-8', 'Testosterone [Mass/volume] in Serum or Plasma', 'Testosterone', ['Testosterone, Total', 'Testosterone, Serum', 'Total Testosterone'], [u(['ng/dL'], [1, 3000], 0)]],
  ['2991-8', 'Testosterone Free [Mass/volume] in Serum or Plasma', 'Free Testosterone', ['Testosterone, Free', 'Testosterone Free'], [u(['pg/mL'], [0.1, 500], 1)]],
  ['13967-5', 'Sex hormone binding globulin [Moles/volume] in Serum or Plasma', 'SHBG', ['Sex Hormone Binding Globulin', 'Sex Hormone Binding Glob'], [u(['nmol/L'], [1, 400], 1)]],
  ['2243-4', 'Estradiol (E2) [Mass/volume] in Serum or Plasma', 'Estradiol', ['E2', 'Estradiol, Serum'], [u(['pg/mL'], [1, 10000], 1)]],
  ['2143-6', 'Cortisol [Mass/volume] in Serum or Plasma', 'Cortisol', ['Cortisol, AM', 'Cortisol, Serum', 'Cortisol, Total'], [u(UG_DL, [0.5, 100], 1)]],
  ['2191-5', 'Dehydroepiandrosterone sulfate (DHEA-S) [Mass/volume] in Serum or Plasma', 'DHEA-Sulfate', ['DHEA Sulfate', 'DHEA-S', 'DHEA-SO4'], [u(UG_DL, [1, 2000], 1)]],
  ['15067-2', 'Follitropin [Units/volume] in Serum or Plasma', 'FSH', ['Follicle Stimulating Hormone', 'Follitropin'], [u(['mIU/mL', 'IU/L'], [0.05, 300], 1)]],
  ['10501-5', 'Lutropin [Units/volume] in Serum or Plasma', 'LH', ['Luteinizing Hormone', 'Lutropin'], [u(['mIU/mL', 'IU/L'], [0.05, 300], 1)]],
  ['2842-3', 'Prolactin [Mass/volume] in Serum or Plasma', 'Prolactin', ['PRL'], [u(['ng/mL', 'ug/L'], [0.2, 5000], 1)]],
  ['2839-9', 'Progesterone [Mass/volume] in Serum or Plasma', 'Progesterone', [], [u(['ng/mL'], [0.02, 500], 1)]],
  ['2857-1', 'Prostate specific Ag [Mass/volume] in Serum or Plasma', 'PSA', ['Prostate Specific Ag', 'PSA, Total', 'Prostate Specific Antigen', 'PSA Total'], [u(['ng/mL'], [0.01, 10000])]],
]);

const nutrition = group('blood', [
  ['2498-4', 'Iron [Mass/volume] in Serum or Plasma', 'Iron', ['Iron, Total', 'Serum Iron', 'Iron, Serum', 'Fe'], [u(UG_DL, [5, 1000], 0), u(['umol/L'], [1, 180], 1, ['14798-3', 'Iron [Moles/volume] in Serum or Plasma'])]],
  ['2500-7', 'Iron binding capacity [Mass/volume] in Serum or Plasma', 'TIBC', ['Iron Binding Capacity', 'Total Iron Binding Capacity', 'Iron Bind.Cap.(TIBC)', 'Iron Binding Capacity (TIBC)'], [u(UG_DL, [50, 1200], 0), u(['umol/L'], [9, 215], undefined, ['14800-7', 'Iron binding capacity [Moles/volume] in Serum or Plasma'])]],
  ['2501-5', 'Iron binding capacity.unsaturated [Mass/volume] in Serum or Plasma', 'UIBC', ['Unsaturated Iron Binding Capacity', 'Unsaturated Iron-Binding Capacity'], [u(UG_DL, [5, 1000], 0)]],
  ['2502-3', 'Iron saturation [Mass Fraction] in Serum or Plasma', 'Iron Saturation', ['Iron Sat', '% Saturation', 'Transferrin Saturation', 'Iron Saturation (%)', 'Iron Saturation %', 'Percent Saturation'], [u(['%'], [1, 100], 0)]],
  ['2276-4', 'Ferritin [Mass/volume] in Serum or Plasma', 'Ferritin', ['Ferritin, Serum'], [u(['ng/mL', 'ug/L', 'mcg/L'], [1, 100000], 0)]],
  ['3034-6', 'Transferrin [Mass/volume] in Serum or Plasma', 'Transferrin', [], [u(['mg/dL'], [50, 800], 0)]],
  ['62292-8', '25-Hydroxyvitamin D2+25-Hydroxyvitamin D3 [Mass/volume] in Serum or Plasma', 'Vitamin D, 25-Hydroxy', ['25-OH Vitamin D', 'Vitamin D 25-OH', 'Vitamin D, 25-OH, Total', '25-Hydroxyvitamin D', 'Vitamin D, 25-Hydroxy, Total', 'Vitamin D, 25-OH', '25-OH Vit D', 'Vitamin D'], [u(['ng/mL'], [2, 250]), u(['nmol/L'], [5, 600], 0)]],
  ['2132-9', 'Cobalamin (Vitamin B12) [Mass/volume] in Serum or Plasma', 'Vitamin B12', ['B12', 'Cobalamin', 'Vitamin B-12', 'Vitamin B12, Serum'], [u(['pg/mL'], [30, 10000], 0), u(['pmol/L'], [20, 7500], 0, ['14685-2', 'Cobalamin (Vitamin B12) [Moles/volume] in Serum or Plasma'])]],
  ['2284-8', 'Folate [Mass/volume] in Serum or Plasma', 'Folate', ['Folate (Folic Acid), Serum', 'Folic Acid', 'Folate, Serum'], [u(['ng/mL'], [0.3, 60], 1), u(['nmol/L'], [0.7, 140], 1, ['14732-2', 'Folate [Moles/volume] in Serum or Plasma'])]],
]);

const other = group('blood', [
  ['1988-5', 'C reactive protein [Mass/volume] in Serum or Plasma', 'C-Reactive Protein', ['CRP', 'C-Reactive Protein, Quant', 'C Reactive Protein'], [u(['mg/L'], [0.1, 600], 1), u(['mg/dL'], [0.01, 60], 2)]],
  ['30522-7', 'C reactive protein [Mass/volume] in Serum or Plasma by High sensitivity method', 'hs-CRP', ['HS CRP', 'C-Reactive Protein, Cardiac', 'High Sensitivity CRP', 'CRP, High Sensitivity', 'hsCRP', 'C-Reactive Protein, High Sensitivity'], [u(['mg/L'], [0, 300], 1)]],
  ['30341-2', 'Erythrocyte sedimentation rate', 'Sed Rate', ['ESR', 'Sedimentation Rate', 'Sed Rate by Modified Westergren', 'Erythrocyte Sedimentation Rate', 'Sed Rate (ESR)'], [u(['mm/h', 'mm/hr'], [0, 160], 0)]],
  ['13965-9', 'Homocysteine [Moles/volume] in Serum or Plasma', 'Homocysteine', ['Homocyst(e)ine', 'Homocysteine, Plasma'], [u(['umol/L'], [1, 300], 1)]],
  ['5902-2', 'Prothrombin time (PT)', 'Prothrombin Time', ['PT', 'Protime', 'Prothrombin Time (PT)'], [u(['s', 'sec', 'seconds'], [5, 150], 1)]],
  ['6301-6', 'INR in Platelet poor plasma by Coagulation assay', 'INR', ['International Normalized Ratio', 'INR (Coag)'], [u(RATIO, [0.5, 15], 1)]],
  ['30934-4', 'Natriuretic peptide B [Mass/volume] in Serum or Plasma', 'BNP', ['B-Type Natriuretic Peptide', 'Natriuretic Peptide B', 'B-Natriuretic Peptide'], [u(['pg/mL'], [1, 10000], 0)]],
  ['33762-6', 'Natriuretic peptide.B prohormone N-Terminal [Mass/volume] in Serum or Plasma', 'NT-proBNP', ['NT-Pro BNP', 'NT proBNP', 'Pro B-Type Natriuretic Peptide'], [u(['pg/mL'], [5, 100000], 0)]],
  ['33863-2', 'Cystatin C [Mass/volume] in Serum or Plasma', 'Cystatin C', [], [u(['mg/L'], [0.2, 10], 2)]],
]);

const serology = group('blood', [
  ['56888-1', 'HIV 1+2 Ab+HIV1 p24 Ag [Presence] in Serum or Plasma by Immunoassay', 'HIV Ag/Ab Screen', ['HIV Ab/p24 Ag Screen', 'HIV-1/2 Ag/Ab Screen', 'HIV 1/2 Antigen/Antibody', 'HIV Ag/Ab, 4th Gen', 'HIV-1/HIV-2 Ab/Ag Screen', 'HIV 1/2 Ag/Ab Screen', 'HIV Screen 4th Generation', 'HIV 1/2 Antigen/Antibody, Fourth Generation'], [], 'qualitative'],
  ['5196-1', 'Hepatitis B virus surface Ag [Presence] in Serum by Immunoassay', 'Hepatitis B Surface Antigen', ['HBsAg Screen', 'Hep B Surface Ag', 'HBsAg', 'Hepatitis B Surface Ag', 'Hepatitis B Surface Antigen Screen'], [], 'qualitative'],
  ['22322-2', 'Hepatitis B virus surface Ab [Presence] in Serum', 'Hepatitis B Surface Antibody', ['Hep B Surface Ab', 'HBsAb', 'Anti-HBs', 'Hepatitis B Surface Ab', 'Hepatitis B Surface Antibody, Qual'], [], 'qualitative'],
  ['16933-4', 'Hepatitis B virus core Ab [Presence] in Serum', 'Hepatitis B Core Ab, Total', ['Hep B Core Ab, Tot', 'HBcAb Total', 'Anti-HBc Total', 'Hepatitis B Core Antibody, Total', 'Hepatitis B Core Antibody'], [], 'qualitative'],
  ['13955-0', 'Hepatitis C virus Ab [Presence] in Serum or Plasma by Immunoassay', 'Hepatitis C Antibody', ['HCV Ab', 'Hep C Virus Ab', 'HCV Antibody', 'Hepatitis C Virus Ab', 'Hepatitis C Ab'], [], 'qualitative'],
  ['20507-0', 'Reagin Ab [Presence] in Serum by RPR', 'RPR', ['RPR (Rapid Plasma Reagin)', 'RPR Ser Ql', 'Rapid Plasma Reagin', 'RPR (Monitor) W/Refl Titer', 'RPR Screen'], [], 'qualitative'],
  // Titers ("1:160") are neither a number nor a word: 'either', with no unit.
  ['31147-2', 'Reagin Ab [Titer] in Serum by RPR', 'RPR Titer', ['RPR, Quant', 'Rapid Plasma Reagin Titer', 'RPR Titer, Serum'], [], 'either'],
  ['16935-9', 'Hepatitis B virus surface Ab [Units/volume] in Serum', 'Hepatitis B Surface Antibody, Quant', ['HBsAb Quant', 'Hep B Surface Ab, Quant', 'Anti-HBs, Quantitative', 'Hepatitis B Surface Ab, Quant', 'Hepatitis B Surface Antibody, Quantitative'], [u(['mIU/mL'], [0, 100000])]],
  ['8061-4', 'Nuclear Ab [Presence] in Serum by Immunofluorescence', 'ANA Screen, IFA', ['ANA Screen', 'ANA by IFA', 'Antinuclear Antibodies', 'Antinuclear Antibody Screen', 'ANA, IFA'], [], 'qualitative'],
  ['5048-4', 'Nuclear Ab [Titer] in Serum by Immunofluorescence', 'ANA Titer', ['Antinuclear Antibody Titer', 'ANA Titer, IFA'], [], 'either'],
  ['11572-5', 'Rheumatoid factor [Units/volume] in Serum or Plasma', 'Rheumatoid Factor', ['RF', 'Rheumatoid Factor, Quant', 'RA Factor'], [u(['IU/mL'], [0, 10000])]],
  ['33959-8', 'Procalcitonin [Mass/volume] in Serum or Plasma', 'Procalcitonin', ['PCT'], [u(['ng/mL'], [0, 1000], 2)]],
]);

const infections = group('swab', [
  ['94500-6', 'SARS-CoV-2 (COVID-19) RNA [Presence] in Respiratory system specimen by NAA with probe detection', 'SARS-CoV-2 RNA', ['SARS-CoV-2 RNA, NAA', 'SARS-CoV-2 NAA', 'COVID-19 PCR', 'COVID-19 RNA', 'SARS CoV 2 RNA, PCR'], [], 'qualitative'],
  ['43304-5', 'Chlamydia trachomatis rRNA [Presence] in Specimen by NAA with probe detection', 'Chlamydia trachomatis RNA', ['Chlamydia trachomatis RNA, TMA', 'Chlamydia trachomatis, NAA', 'C. trachomatis RNA', 'Chlamydia, NAA'], [], 'qualitative'],
  ['43305-2', 'Neisseria gonorrhoeae rRNA [Presence] in Specimen by NAA with probe detection', 'Neisseria gonorrhoeae RNA', ['Neisseria gonorrhoeae RNA, TMA', 'Neisseria gonorrhoeae, NAA', 'N. gonorrhoeae RNA', 'Gonorrhea, NAA'], [], 'qualitative'],
]);

const urine = group('urine', [
  ['5778-6', 'Color of Urine', 'Color', ['Urine Color', 'Color, Urine'], [], 'qualitative'],
  ['5767-9', 'Appearance of Urine', 'Appearance', ['Clarity', 'Urine Appearance', 'Appearance, Urine', 'Urine Clarity'], [], 'qualitative'],
  ['5811-5', 'Specific gravity of Urine by Test strip', 'Specific Gravity', ['Specific Gravity, Urine', 'SG', 'Urine Specific Gravity', 'Sp Gravity'], [u([''], [1, 1.06], 3)]],
  ['5803-2', 'pH of Urine by Test strip', 'pH', ['pH, Urine', 'Urine pH'], [u([''], [4, 9.5], 1)]],
  ['5804-0', 'Protein [Mass/volume] in Urine by Test strip', 'Protein, Urine', ['Protein', 'Urine Protein', 'Protein, Qual', 'Protein, Urinalysis'], [u(['mg/dL'], [0, 3000], 0)], 'either'],
  ['5792-7', 'Glucose [Mass/volume] in Urine by Test strip', 'Glucose, Urine', ['Glucose', 'Urine Glucose', 'Glucose, Qual'], [u(['mg/dL'], [0, 5000], 0)], 'either'],
  ['5797-6', 'Ketones [Mass/volume] in Urine by Test strip', 'Ketones', ['Ketones, Urine', 'Urine Ketones', 'Ketone', 'Ketones, Qual'], [u(['mg/dL'], [0, 200], 0)], 'either'],
  ['5794-3', 'Hemoglobin [Presence] in Urine by Test strip', 'Occult Blood', ['Blood', 'Blood, Urine', 'Urine Blood', 'Occult Blood, Urine', 'Hemoglobin, Urine'], [], 'qualitative'],
  ['5799-2', 'Leukocyte esterase [Presence] in Urine by Test strip', 'Leukocyte Esterase', ['Leukocytes', 'Urine Leukocyte Esterase', 'Leukocyte Esterase, Urine'], [], 'qualitative'],
  ['5802-4', 'Nitrite [Presence] in Urine by Test strip', 'Nitrite', ['Nitrite, Urine', 'Nitrites', 'Urine Nitrite'], [], 'qualitative'],
  ['5770-3', 'Bilirubin.total [Presence] in Urine by Test strip', 'Bilirubin, Urine', ['Bilirubin', 'Urine Bilirubin'], [], 'qualitative'],
  ['20405-7', 'Urobilinogen [Mass/volume] in Urine by Test strip', 'Urobilinogen', ['Urobilinogen,Semi-Qn', 'Urobilinogen, Semi-Qn', 'Urobilinogen, Urine', 'Urine Urobilinogen'], [u(['mg/dL', 'EU/dL'], [0, 12], 1)], 'either'],
  ['5821-4', 'Leukocytes [#/area] in Urine sediment by Microscopy high power field', 'WBC, Urine', ['WBC', 'WBC/HPF', 'Urine WBC', 'White Blood Cells, Urine', 'WBC (Urine)'], [u(HPF, [0, 500], 0)], 'either'],
  ['13945-1', 'Erythrocytes [#/area] in Urine sediment by Microscopy high power field', 'RBC, Urine', ['RBC', 'RBC/HPF', 'Urine RBC', 'Red Blood Cells, Urine', 'RBC (Urine)'], [u(HPF, [0, 500], 0)], 'either'],
  ['14959-1', 'Microalbumin/Creatinine [Mass ratio] in Urine', 'Microalbumin/Creatinine Ratio', ['Albumin/Creatinine Ratio, Urine', 'Microalb/Creat Ratio', 'Albumin/Creatinine Ratio', 'ACR', 'Microalbumin/Creat Ratio'], [u(['mg/g', 'mg/g creat', 'mg/g{creat}'], [0, 10000], 0)]],
]);

export const ANALYTES: readonly Analyte[] = [...chemistry, ...cbc, ...lipids, ...endocrine, ...nutrition, ...other, ...serology, ...infections, ...urine].map((a) => {
  const foreign = [...(GERMAN_NAMES[a.code] ?? []), ...(SPANISH_NAMES[a.code] ?? [])];
  return foreign.length ? { ...a, aliases: [...a.aliases, ...foreign] } : a;
});

/**
 * Codes of one analyte measured as another property (glucose in mmol/L, urea in mmol/L) → the
 * analyte's own code, so that a patient's history files an SI value beside the conventional ones
 * and converts it (domain/biomarkers/units.ts).
 */
export const ANALYTE_CODE_OF_PROPERTY: ReadonlyMap<string, string> = new Map([
  ...ANALYTES.flatMap((a) => a.units.flatMap((spec) => (spec.loinc ? [[spec.loinc.code, a.code] as const] : []))),
  // Urea is printed on its own (UK, Australia); in mmol/L it is the same number of moles as BUN's.
  ['22664-7', '3094-0'] as const,
]);
