import { describe, expect, it } from 'vitest';
import { extractMetadata } from '../../../server/service/reader/metadata';
import { genderValue, splitName, unlabelledGender } from '../../../server/service/reader/metadata/values';
import { page, type Line } from './helpers';

const read = (lines: Line[], opts?: { size?: number }) => extractMetadata(page(lines, 1, opts));

describe('report metadata', () => {
  it('reads several "Label: value" pairs on a line, names written last-name-first, and the letterhead lab', () => {
    const { metadata, missing } = read([
      [40, [[36, 'Riverbend Diagnostics']]],
      [70, [[36, 'Patient Name: OKAFOR, EMILY'], [330, 'Specimen: EN123404T']]],
      [82, [[36, 'DOB: 10/20/1979   Age: 45'], [330, 'Collected: 12/24/2024 10:30 EST']]],
      [94, [[36, 'Gender: F'], [330, 'Reported: 12/26/2024 17:02 EST']]],
      [758, [[36, 'PERFORMING SITE: EN RIVERBEND DIAGNOSTICS']]],
    ]);
    expect(metadata).toEqual({
      patient_first_name: 'EMILY',
      patient_last_name: 'OKAFOR',
      dob: '10/20/1979',
      lab_name: 'Riverbend Diagnostics',
      date_collected: '12/24/2024 10:30 EST',
      date_reported: '12/26/2024 17:02 EST',
      specimen_number: 'EN123404T',
      gender: 'female',
    });
    expect(missing).toEqual([]);
  });

  it('reads labels printed over their values, even OCR-damaged ones, and first-name-first names', () => {
    const { metadata } = read([
      [60, [[36, 'Laboratory: Summit Reference Laboratory']]],
      [80, [[36, 'Pavent'], [150, 'Date of Bith'], [240, 'Accession #'], [340, 'Collected'], [460, 'Reported']]],
      [91, [[36, 'Olivia Z. Brennan'], [140, '1972-06-21'], [240, 'A24-7797693'], [340, '2024-01-21 09:45'], [460, '2024-01-22']]],
    ], { size: 8 });
    expect(metadata).toEqual({
      patient_first_name: 'Olivia',
      patient_last_name: 'Brennan',
      dob: '1972-06-21',
      lab_name: 'Summit Reference Laboratory',
      date_collected: '2024-01-21 09:45',
      date_reported: '2024-01-22',
      specimen_number: 'A24-7797693',
    });
  });

  it('reads values whose words a typewriter font spaces a cell apart, up to the next label or column', () => {
    // Size 9: the words are 9 px (1 em) apart, wider than a cell gap (0.8 em) and narrower than a column.
    const words = (x: number, ...ws: string[]): [number, string][] =>
      ws.map((w) => {
        const at = x;
        x += w.length * 4.5 + 9;
        return [at, w];
      });
    const { metadata } = read([
      [70, [...words(36, 'PATIENT:', 'KIM,', 'YASMIN', 'MRN:', '8903421'), [400, 'DOB: 05/17/1943']]],
      [82, words(36, 'COLL:', '12/14/2024', '11:30', 'RECD:', '12/14/2024', '12:00')],
      [94, [...words(36, 'ORDERING:', 'OSEI,', 'KOFI', 'MD'), [300, 'Page 1 of 1']]],
    ]);
    expect(metadata).toMatchObject({
      patient_first_name: 'YASMIN',
      patient_last_name: 'KIM',
      dob: '05/17/1943',
      date_collected: '12/14/2024 11:30',
      date_received: '12/14/2024 12:00',
      provider: 'OSEI, KOFI MD',
    });
  });

  it('says what is missing and what was found, and falls back to the performing site for the lab', () => {
    const { metadata, missing, found } = read([[70, [[36, 'Performing Lab: Lakeside Pathology Labs']]]]);
    expect(metadata.lab_name).toBe('Lakeside Pathology Labs');
    expect(missing).toEqual(['patient_first_name', 'patient_last_name', 'dob']);
    expect(found).toEqual(['lab_name']);
  });
});

describe('header and patient-block styles', () => {
  it('Quest-like: headings over the patient block, date / time, the letterhead address, a client address that is not the lab’s', () => {
    const { metadata, found } = read([
      [36, [[36, 'Quest Diagnostics Incorporated']]],
      [48, [[36, '33608 Ortega Highway, San Juan Capistrano, CA 92675-2042']]],
      [70, [[36, 'Patient Information'], [220, 'Specimen Information'], [400, 'Client Information']]],
      [82, [[36, "O'BRIEN-SMITH, MARY K"], [220, 'Specimen: WX123456R'], [400, 'Client #: 97512345']]],
      [94, [[36, 'DOB: 04/17/1962   AGE: 62'], [220, 'Requisition: 0041235'], [400, 'BAYVIEW FAMILY MEDICINE']]],
      [106, [[36, 'Gender: F'], [220, 'Collected: 01/15/2024 / 08:30 PST'], [400, '123 Clinic Rd, Irvine, CA 92618']]],
      [118, [[36, 'Phone: 949-555-0100'], [220, 'Received: 01/15/2024 / 11:02 PST']]],
      [130, [[36, 'Patient ID: 0012345'], [220, 'Reported: 01/17/2024 / 06:45 PST']]],
      [150, [[36, 'Ordering Physician: RUIZ, ANA MD   NPI: 1234567890']]],
    ]);
    expect(metadata).toEqual({
      patient_first_name: 'MARY',
      patient_last_name: "O'BRIEN-SMITH",
      dob: '04/17/1962',
      lab_name: 'Quest Diagnostics Incorporated',
      date_collected: '01/15/2024 / 08:30 PST',
      date_received: '01/15/2024 / 11:02 PST',
      date_reported: '01/17/2024 / 06:45 PST',
      specimen_number: 'WX123456R',
      gender: 'female',
      provider: 'RUIZ, ANA MD',
      lab_address: '33608 Ortega Highway, San Juan Capistrano, CA 92675-2042',
    });
    expect(found).not.toContain('clia_#');
  });

  it('Labcorp-like: three columns of details, a suffix after the name, the ordering provider before the referring one, the performing lab’s address in the footer', () => {
    const { metadata } = read([
      [30, [[36, 'LabCorp'], [300, 'Patient Report']]],
      [50, [[36, 'Patient Details'], [220, 'Specimen Details'], [400, 'Physician Details']]],
      [62, [[36, 'Smith-Jones, Robert Allen Jr.'], [220, 'Specimen ID: 031-476-1234-0'], [400, 'Referring: K. OSEI DO']]],
      [74, [[36, 'DOB: 1/2/1975'], [220, 'Control ID: 30015551234'], [400, 'Ordering: R. PATEL MD']]],
      [86, [[36, 'Age(y/m/d): 049/00/13'], [220, 'Date collected: 01/15/2024 0830 Local'], [400, 'ID: 1234567890']]],
      [98, [[36, 'Sex: Male'], [220, 'Date received: 01/15/2024'], [400, 'NPI: 1234567890']]],
      [110, [[36, 'Patient ID: 123456'], [220, 'Date entered: 01/15/2024']]],
      [122, [[220, 'Date reported: 01/17/2024 0624 ET']]],
      [760, [[36, 'Performing Labs: BN LabCorp Burlington, 1447 York Court, Burlington, NC 27215-3361  Dir: Sanjai Nagendra, MD']]],
    ]);
    expect(metadata).toEqual({
      patient_first_name: 'Robert',
      patient_last_name: 'Smith-Jones',
      dob: '1/2/1975',
      lab_name: 'LabCorp',
      date_collected: '01/15/2024 0830',
      date_received: '01/15/2024',
      date_reported: '01/17/2024 0624 ET',
      specimen_number: '031-476-1234-0',
      gender: 'male',
      provider: 'R. PATEL MD',
      lab_address: '1447 York Court, Burlington, NC 27215-3361',
    });
  });

  it('hospital LIS in capitals: PT NAME, ACC#, COLL, RECD, RPT, AGE/SEX, ORD PHYS, a letterhead address on two lines, the header repeated on page 2', () => {
    const header = (n: number): Line[] => [
      [30, [[36, "ST. MARY'S REGIONAL MEDICAL CENTER LABORATORY"]]],
      [42, [[36, '1200 HOSPITAL DRIVE']]],
      [54, [[36, 'RENO, NV 89502'], [400, 'CLIA #29D0652140']]],
      [70, [[36, 'PT NAME: GARCIA-LOPEZ, JOSE A'], [300, 'MRN: 00412345'], [450, 'LOC: 4W-12']]],
      [750, [[36, `PRINTED: 03/0${3 + n}/2024 1100`], [450, `PAGE ${n} OF 2`]]],
    ];
    const rows = [
      ...page([
        ...header(1),
        [82, [[36, 'DOB: 03/09/1948'], [150, 'AGE/SEX: 76/M'], [300, 'ACC#: H24-0012345']]],
        [94, [[36, 'COLL: 03/02/2024 0645'], [200, 'RECD: 03/02/2024 0712'], [370, 'RPT: 03/02/2024 0930']]],
        [106, [[36, 'ORD PHYS: NGUYEN, LINH MD'], [300, 'ATTENDING: PARK, SOO MD']]],
      ], 1),
      ...page([...header(2), [82, [[36, 'DOB: 03/09/1948'], [300, 'ACC#: H24-0099999']]]], 2),
    ];
    const { metadata } = extractMetadata(rows);
    expect(metadata).toEqual({
      patient_first_name: 'JOSE',
      patient_last_name: 'GARCIA-LOPEZ',
      dob: '03/09/1948',
      lab_name: "ST. MARY'S REGIONAL MEDICAL CENTER LABORATORY",
      date_collected: '03/02/2024 0645',
      date_received: '03/02/2024 0712',
      date_reported: '03/02/2024 0930',
      specimen_number: 'H24-0012345',
      gender: 'male',
      provider: 'NGUYEN, LINH MD',
      lab_address: '1200 HOSPITAL DRIVE, RENO, NV 89502',
      'clia_#': '29D0652140',
    });
  });

  it('a patient-portal printout: "Name:", colonless "Collected on"/"Resulted on", a printed date that is not the report date, accents', () => {
    const { metadata } = read([
      [30, [[36, 'MyHealth Patient Portal'], [430, 'Printed on 3/5/2024 2:14 PM']]],
      [50, [[36, 'Name: Ana Lucía Pérez']]],
      [62, [[36, 'Date of Birth: 7/4/1990']]],
      [74, [[36, 'Ordered by: Samir Haddad, MD']]],
      [86, [[36, 'Collected on Feb 28, 2024 9:05 AM']]],
      [98, [[36, 'Resulted on Feb 29, 2024 4:40 PM']]],
      [110, [[36, 'Lab: Bayside Family Health Lab']]],
      [750, [[36, 'Page 1 of 3'], [450, 'https://portal.example.org']]],
    ]);
    expect(metadata).toEqual({
      patient_first_name: 'Ana',
      patient_last_name: 'Pérez',
      dob: '7/4/1990',
      lab_name: 'Bayside Family Health Lab',
      date_collected: 'Feb 28, 2024 9:05 AM',
      date_reported: 'Feb 29, 2024 4:40 PM',
      provider: 'Samir Haddad, MD',
    });
  });

  it('a letter: the letterhead’s name and address (not the patient’s), "Re: … (DOB …)", "Dear Ms. …", the letter’s date and a date in a sentence; a clinician signing it is the provider', () => {
    const { metadata, missing } = read([
      [40, [[36, 'Willow Creek Medical Laboratory']]],
      [52, [[36, '1450 Oak Street, Suite 210']]],
      [64, [[36, 'Portland, OR 97205']]],
      [76, [[36, 'Phone (503) 555-0142']]],
      [100, [[36, 'March 8, 2024']]],
      [124, [[36, 'Ms. Jane Doe']]],
      [136, [[36, '12 Elm Street']]],
      [148, [[36, 'Springfield, IL 62704']]],
      [172, [[36, 'Re: Jane Doe (DOB 01/02/1980)']]],
      [196, [[36, 'Dear Ms. Doe,']]],
      [220, [[36, 'Your blood sample collected on March 1, 2024 was tested in our laboratory. Your fasting glucose was 95 mg/dL.']]],
      [300, [[36, 'Sincerely,']]],
      [312, [[36, 'Dr. Ana Rivera, MD']]],
    ]);
    expect(metadata).toEqual({
      patient_first_name: 'Jane',
      patient_last_name: 'Doe',
      dob: '01/02/1980',
      lab_name: 'Willow Creek Medical Laboratory',
      date_collected: 'March 1, 2024',
      // The letter's own date, above the salutation: the results were reported by then.
      date_reported: 'March 8, 2024',
      lab_address: '1450 Oak Street, Suite 210, Portland, OR 97205',
      provider: 'Dr. Ana Rivera, MD',
    });
    expect(missing).toEqual([]);
  });

  it('a letter signed by someone without a title or credential names no provider; a labelled provider wins over the signature', () => {
    const unsigned = read([[40, [[36, 'Patient: Jane Doe']]], [300, [[36, 'Sincerely,']]], [312, [[36, 'Ana Rivera']]], [324, [[36, 'Laboratory Manager']]]]);
    expect(unsigned.metadata.provider).toBeUndefined();
    const labelled = read([[40, [[36, 'Patient: Jane Doe'], [300, 'Ordering physician: Paul Ng, MD']]], [300, [[36, 'Kind regards,']]], [312, [[36, 'Dr. Ana Rivera']]]]);
    expect(labelled.metadata.provider).toBe('Paul Ng, MD');
  });

  it('a letter without labels: "Dear Mr. …" names the patient, "45 y/o male" gives the sex; "Dear Patient," names nobody', () => {
    const named = read([[100, [[36, 'Dear Mr. John Smith III,']]], [120, [[36, 'As a 45 y/o male, your cholesterol ...']]]]);
    expect([named.metadata.patient_first_name, named.metadata.patient_last_name, named.metadata.gender]).toEqual(['John', 'Smith', 'male']);
    const portal = read([[30, [[36, 'Lab Results for Priya Nair']]], [42, [[36, 'Date of Birth: 5/6/1988']]]]);
    expect([portal.metadata.patient_first_name, portal.metadata.patient_last_name]).toEqual(['Priya', 'Nair']);
    const nobody = read([[100, [[36, 'Dear Patient,']]]]);
    expect(nobody.missing).toContain('patient_last_name');
  });

  it('a footer with the performing lab, its address, CLIA and director: the director is neither provider nor patient, "Page 1 of 2" is nothing', () => {
    const { metadata } = read([
      [40, [[36, 'Patient: Mark Chen'], [330, 'DOB: 11/30/1985']]],
      [52, [[36, 'Collected: 2024-02-10 07:15'], [330, 'Reported: 2024-02-11']]],
      [740, [[36, 'Performed at: Lakeside Labs, 123 Main St, Springfield, IL 62701 CLIA 14D0123456 Lab Director: Dr. Helen Park, MD']]],
      [752, [[36, 'Page 1 of 2']]],
    ]);
    expect(metadata).toEqual({
      patient_first_name: 'Mark',
      patient_last_name: 'Chen',
      dob: '11/30/1985',
      lab_name: 'Lakeside Labs',
      date_collected: '2024-02-10 07:15',
      date_reported: '2024-02-11',
      lab_address: '123 Main St, Springfield, IL 62701',
      'clia_#': '14D0123456',
    });
  });

  it('boxed labels over their values: sex, ordering physician, received and report dates in boxes', () => {
    const { metadata } = read([
      [30, [[36, 'Keystone Diagnostic Services']]],
      [60, [[36, 'Patient Name'], [200, 'Date of Birth'], [300, 'Sex'], [360, 'Ordering Physician']]],
      [72, [[36, 'KOWALSKI, ANNA M'], [200, '09/14/1958'], [300, 'F'], [360, 'Dr. Kofi Osei, MD']]],
      [90, [[36, 'Collection Date'], [200, 'Received Date'], [300, 'Report Date'], [420, 'Accession']]],
      [102, [[36, '05/06/2024 10:05'], [200, '05/06/2024 13:40'], [300, '05/07/2024 08:00'], [420, 'K240506-0042']]],
    ]);
    expect(metadata).toEqual({
      patient_first_name: 'ANNA',
      patient_last_name: 'KOWALSKI',
      dob: '09/14/1958',
      lab_name: 'Keystone Diagnostic Services',
      date_collected: '05/06/2024 10:05',
      date_received: '05/06/2024 13:40',
      date_reported: '05/07/2024 08:00',
      specimen_number: 'K240506-0042',
      gender: 'female',
      provider: 'Dr. Kofi Osei, MD',
    });
  });

  it('boxes whose values run together under their labels, beside the lab’s logo', () => {
    const { metadata } = read([
      [30, [[36, 'Patient'], [130, 'DOB'], [200, 'Sex'], [240, 'Accession'], [430, 'Atlas Clinical Reference Lab']]],
      [42, [[36, 'WU, MEI LING'], [130, '02/03/1971'], [200, 'F'], [240, 'AT-551029'], [430, '55 Commerce Park, Edison, NJ 08837']]],
    ]);
    expect(metadata).toMatchObject({
      patient_first_name: 'MEI',
      patient_last_name: 'WU',
      dob: '02/03/1971',
      gender: 'female',
      specimen_number: 'AT-551029',
      lab_name: 'Atlas Clinical Reference Lab',
      lab_address: '55 Commerce Park, Edison, NJ 08837',
    });
  });

  it('a footer in one line with bullets, and "Testing performed by"', () => {
    const { metadata } = read([
      [40, [[36, 'Patient: Chen, Mark'], [330, 'DOB: 11/30/1985']]],
      [700, [[36, 'Testing performed by Great Lakes Pathology Associates.']]],
      [740, [[36, 'Great Lakes Pathology Associates • 3100 Lakeshore Drive • Milwaukee, WI 53202 • CLIA No. 52D0394456']]],
    ]);
    expect(metadata).toMatchObject({
      lab_name: 'Great Lakes Pathology Associates',
      lab_address: '3100 Lakeshore Drive, Milwaukee, WI 53202',
      'clia_#': '52D0394456',
    });
  });

  it('a logo letterhead without the word lab, its street and city in two cells, a Canadian postcode', () => {
    const lines: Line[] = [
      [30, [[36, 'Sonora Quest']]],
      [44, [[36, '1255 W Washington St'], [160, 'Toronto, ON M5G 1X5']]],
      [70, [[36, 'Patient: Ana Ruiz']]],
      [82, [[36, 'DOB: 01/02/1980']]],
    ];
    const rows = page(lines);
    rows[0]!.height = 16; // printed large, as letterheads are
    const { metadata } = extractMetadata(rows);
    expect(metadata).toMatchObject({ lab_name: 'Sonora Quest', lab_address: '1255 W Washington St, Toronto, ON M5G 1X5' });
  });

  it('labels and values in separate cells without colons', () => {
    const { metadata } = read([
      [60, [[36, 'Patient'], [110, 'NOVAK, PETER'], [300, 'Accession'], [380, '24-118-00731']]],
      [72, [[36, 'DOB'], [110, '12/01/1949'], [300, 'Collected'], [380, '04/30/2024 06:10']]],
      [84, [[36, 'Sex'], [110, 'Male'], [300, 'Received'], [380, '04/30/2024 07:02']]],
      [96, [[36, 'Physician'], [110, 'Laura Novak, NP'], [300, 'Reported'], [380, '04/30/2024 11:48']]],
    ]);
    const more = read([[40, [[36, 'NAME:'], [100, 'DOE, JANE   MRN: 0098812'], [300, 'DOB:'], [340, '01/02/1980   Sex: F']]]]);
    expect(more.metadata).toMatchObject({ patient_first_name: 'JANE', patient_last_name: 'DOE', dob: '01/02/1980', gender: 'female' });
    expect(metadata).toMatchObject({
      patient_first_name: 'PETER',
      patient_last_name: 'NOVAK',
      dob: '12/01/1949',
      date_collected: '04/30/2024 06:10',
      date_received: '04/30/2024 07:02',
      date_reported: '04/30/2024 11:48',
      specimen_number: '24-118-00731',
      gender: 'male',
      provider: 'Laura Novak, NP',
    });
  });

  it('an international block: surname and forename apart, dd/mm/yyyy dates, "Lab No", "Sample taken", "Requesting Clinician"', () => {
    const { metadata } = read([
      [40, [[36, 'Pennine Pathology Services']]],
      [52, [[36, '12 Infirmary Street, Leeds LS1 2TW']]],
      [70, [[36, 'Surname: HUGHES'], [300, 'Lab No: PN24-55810']]],
      [82, [[36, 'Forename: Gareth'], [300, 'Sample taken: 14/03/2024 09:20']]],
      [94, [[36, 'Date of Birth: 23/11/1967'], [300, 'Received: 14/03/2024 13:05']]],
      [106, [[36, 'Sex: M'], [300, 'Reported: 15/03/2024 16:40']]],
      [118, [[36, 'Requesting Clinician: Dr R Patel'], [300, 'NHS No: 943 476 5919']]],
    ]);
    expect(metadata).toEqual({
      patient_first_name: 'Gareth',
      patient_last_name: 'HUGHES',
      dob: '23/11/1967',
      lab_name: 'Pennine Pathology Services',
      date_collected: '14/03/2024 09:20',
      date_received: '14/03/2024 13:05',
      date_reported: '15/03/2024 16:40',
      specimen_number: 'PN24-55810',
      gender: 'male',
      provider: 'Dr R Patel',
      lab_address: '12 Infirmary Street, Leeds LS1 2TW',
    });
  });
});

describe('headers without the usual labels', () => {
  it('a portal: the patient’s name as a heading over the line of identifiers, without a label', () => {
    const { metadata, missing } = read([
      [40, [[36, 'Hiroshi Eriksen']]],
      [54, [[36, 'MRN: 5589770 | DOB: 2/15/1974 (50 y.o.) | Legal Sex: Male']]],
      [80, [[36, 'Lipid Panel - Final result']]],
      [94, [[36, 'Collected on May 1, 2024 9:30 AM'], [300, 'Result date: 5/1/2024 10:46 PM']]],
    ]);
    expect(metadata).toMatchObject({
      patient_first_name: 'Hiroshi',
      patient_last_name: 'Eriksen',
      dob: '2/15/1974',
      gender: 'male',
      date_collected: 'May 1, 2024 9:30 AM',
      date_reported: '5/1/2024 10:46 PM',
    });
    expect(missing).toEqual(['lab_name']);
    // A title over the identifiers names nobody, nor does a name-like line with no identifiers under it.
    expect(read([[40, [[36, 'Lab Results']]], [54, [[36, 'DOB: 2/15/1974']]]]).missing).toContain('patient_last_name');
    expect(read([[40, [[36, 'Hiroshi Eriksen']]], [54, [[36, 'Lipid Panel - Final result']]]]).missing).toContain('patient_last_name');
  });

  it('a UK report: a department’s heading beside the lab’s name is not the lab, the address under the lab is, "Authorised" is the report date', () => {
    const { metadata, missing } = read([
      [40, [[40, 'CLINICAL BIOCHEMISTRY & HAEMATOLOGY'], [330, 'Pennine Pathology Services']]],
      [52, [[330, '12 Infirmary Street, Leeds LS1 2TW']]],
      [64, [[330, 'Tel 0113 555 0123']]],
      [90, [[40, 'Surname:'], [120, 'FONSECA'], [250, 'Lab No:'], [330, 'KT9195959']]],
      [102, [[40, 'Forename:'], [120, 'Tomas'], [250, 'Sample collected:'], [330, '04/01/2024 06:05']]],
      [114, [[40, 'D.O.B.:'], [120, '10/11/1963'], [250, 'Authorised:'], [330, '05/01/2024 08:22']]],
    ]);
    expect(metadata).toMatchObject({
      patient_first_name: 'Tomas',
      patient_last_name: 'FONSECA',
      lab_name: 'Pennine Pathology Services',
      lab_address: '12 Infirmary Street, Leeds LS1 2TW',
      date_collected: '04/01/2024 06:05',
      date_reported: '05/01/2024 08:22',
      specimen_number: 'KT9195959',
    });
    expect(missing).toEqual([]);
  });

  it('a discharge summary: the hospital’s laboratory named in a sentence, and "Specimen … collected …, results verified …" in prose', () => {
    const { metadata } = read([
      [40, [[40, 'Good Samaritan Medical Center']]],
      [60, [[40, 'PATIENT NAME: QUINN, PAVEL G'], [188, 'MRN: 8010933'], [257, 'DOB: 09/10/1974']]],
      [200, [[40, 'Good Samaritan Medical Center Laboratory. Specimen H24-46701 collected 01/09/2024 0705, results verified 01/10/2024 0007.']]],
    ]);
    expect(metadata).toMatchObject({
      lab_name: 'Good Samaritan Medical Center Laboratory',
      specimen_number: 'H24-46701',
      date_collected: '01/09/2024 0705',
      date_reported: '01/10/2024 0007',
    });
    // A date after a colonless "Specimen" is no specimen number.
    expect(read([[60, [[40, 'Specimen 2024-01-05 08:30']]]]).metadata.specimen_number).toBeUndefined();
    // A comma OCR spaced off the surname does not end the name, as a rule's mark does.
    expect(read([[60, [[40, 'Patient Name: DOE , JANE']]]]).metadata).toMatchObject({ patient_first_name: 'JANE', patient_last_name: 'DOE' });
    // Without its laboratory named anywhere, the hospital itself is the lab.
    expect(read([[40, [[40, 'Good Samaritan Medical Center']]], [60, [[40, 'Specimen type: serum']]]]).metadata.lab_name).toBe('Good Samaritan Medical Center');
  });
});

describe('more label spellings', () => {
  it('sex at birth, date of service, accessioned, finalized, lab ref, prescriber, reporting laboratory', () => {
    const { metadata } = read([
      [40, [[36, 'Patient: Jane Doe'], [300, 'DOB: 01/02/1980']]],
      [52, [[36, 'Sex at birth: Female'], [300, 'Lab Ref #: R-2024-88812']]],
      [64, [[36, 'Date of service: 03/04/2024'], [300, 'Accessioned: 03/04/2024 14:02']]],
      [76, [[36, 'Finalized: 03/05/2024 09:15'], [300, 'Prescriber: Ana Ruiz, NP']]],
      [88, [[36, 'Reporting laboratory: Harbor View Clinical Lab']]],
    ]);
    expect(metadata).toMatchObject({
      gender: 'female',
      specimen_number: 'R-2024-88812',
      date_collected: '03/04/2024',
      date_received: '03/04/2024 14:02',
      date_reported: '03/05/2024 09:15',
      provider: 'Ana Ruiz, NP',
      lab_name: 'Harbor View Clinical Lab',
    });
    // A printed collection date wins over the date of service.
    expect(read([[40, [[36, 'Date of service: 03/01/2024'], [300, 'Collected: 03/04/2024 08:00']]]]).metadata.date_collected).toBe('03/04/2024 08:00');
  });

  it('a format note before the colon, bilingual labels, another name that is not the patient’s', () => {
    const { metadata } = read([
      [30, [[36, 'Facility Name: Northside Family Practice']]],
      [42, [[36, 'Patient Name (Last, First): DOE, JANE'], [330, 'DOB (MM/DD/YYYY): 01/02/1980']]],
      [54, [[36, 'Sexo / Sex: F'], [330, 'Fecha de toma / Collected: 02/03/2024 07:40']]],
    ]);
    expect(metadata).toMatchObject({ patient_first_name: 'JANE', patient_last_name: 'DOE', dob: '01/02/1980', gender: 'female', date_collected: '02/03/2024 07:40' });
    const spanish = read([[30, [[36, 'Paciente: María José Ortega']]], [42, [[36, 'Fecha de nacimiento: 14/07/1979']]]]);
    // A Spanish report: "María José" is a compound given name; otherwise the last two words are the two surnames.
    expect(spanish.metadata).toMatchObject({ patient_first_name: 'María José', patient_last_name: 'Ortega', dob: '14/07/1979' });
    const surnames = read([[30, [[36, 'Paciente: Alejandra Morales López']]], [42, [[36, 'Sexo: Femenino']]]]);
    expect(surnames.metadata).toMatchObject({ patient_first_name: 'Alejandra', patient_last_name: 'Morales López', gender: 'female' });
    const four = read([[30, [[36, 'Paciente: José Luis García de la Cruz']]], [42, [[36, 'Fecha de nacimiento: 14/07/1979']]]]);
    expect(four.metadata).toMatchObject({ patient_first_name: 'José Luis', patient_last_name: 'García de la Cruz' });
    // The same three words on an English report: first and last word.
    expect(read([[30, [[36, 'Patient: Alejandra Morales Lopez']]]]).metadata).toMatchObject({ patient_first_name: 'Alejandra', patient_last_name: 'Lopez' });
  });

  it('"Name:" under a physician or insurance heading is not the patient', () => {
    const { metadata } = read([
      [30, [[36, 'Insurance Information'], [300, 'Patient Information']]],
      [42, [[36, 'Name: Blue Shield Family Plan'], [300, 'Name: Rosa Alvarez']]],
      [60, [[36, 'Ordering Physician Information']]],
      [72, [[36, 'Name: Peter Lang']]],
    ]);
    expect([metadata.patient_first_name, metadata.patient_last_name]).toEqual(['Rosa', 'Alvarez']);
    const onlyPhysician = read([[60, [[36, 'Physician']]], [72, [[36, 'Name: Peter Lang']]]]);
    expect(onlyPhysician.missing).toContain('patient_last_name');
  });

  it('a surname with a hospital number after it on the same line', () => {
    const { metadata } = read([[30, [[36, 'Surname: HUGHES   NHS No: 943 476 5919']]], [42, [[36, 'Forename: Gareth']]]]);
    expect([metadata.patient_first_name, metadata.patient_last_name]).toEqual(['Gareth', 'HUGHES']);
  });
});

describe('traps', () => {
  it('a printed date is the report date only when nothing says reported', () => {
    const both = read([[40, [[36, 'Printed: 05/01/2024 10:00'], [300, 'Reported: 04/30/2024']]]]);
    expect(both.metadata.date_reported).toBe('04/30/2024');
    const printedOnly = read([[40, [[36, 'Printed: 05/01/2024 10:00'], [300, 'Page 2 of 3']]]]);
    expect(printedOnly.metadata.date_reported).toBe('05/01/2024 10:00');
  });

  it('the provider without the NPI or a phone number after it', () => {
    expect(read([[40, [[36, 'Ordering Provider: Dr. Ana Ruiz, MD NPI 1234567890']]]]).metadata.provider).toBe('Dr. Ana Ruiz, MD');
    expect(read([[40, [[36, 'Physician: Dr. Ana Ruiz (555) 201-3344']]]]).metadata.provider).toBe('Dr. Ana Ruiz');
    expect(read([[40, [[36, 'Ordering Physician: RUIZ, ANA MD (1234567890)']]]]).metadata.provider).toBe('RUIZ, ANA MD');
    // "Client" is an account; it is read as the provider only when it is plainly a person.
    expect(read([[40, [[36, 'Client: Dr. A. Rivera']]]]).metadata.provider).toBe('Dr. A. Rivera');
    expect(read([[40, [[36, 'Client: 12345 Northside Clinic']]]]).metadata.provider).toBeUndefined();
  });

  it('a second person (lab director, pathologist, reviewer) is neither the provider nor the patient', () => {
    const { metadata, missing } = read([
      [40, [[36, 'Lab Director: Dr. Xavier Young'], [300, 'Pathologist: Dr. Yara Zane']]],
      [52, [[36, 'Reviewed by: Dr. Omar Quinn'], [300, 'Medical Director: Helen Park, MD']]],
      [64, [[36, 'Physician Details'], [300, 'Name: Dr. Ana Ruiz']]],
      [76, [[36, 'Dear Dr. Ruiz,']]],
    ]);
    expect(metadata.provider).toBeUndefined();
    expect(missing).toContain('patient_last_name');
  });

  it('a label followed by something else than its value leaves the field empty', () => {
    const { metadata } = read([
      [40, [[36, 'Name: Lakeside Labs'], [300, 'Sex: U']]],
      [52, [[36, 'DOB: see note'], [300, 'Specimen: Serum']]],
      [64, [[36, 'Patient: Page 1 of 2']]],
    ]);
    expect(metadata.patient_last_name).toBe('');
    expect(metadata.dob).toBe('');
    expect(metadata.gender).toBeUndefined();
    expect(metadata.specimen_number).toBeUndefined();
  });

  it('two patients or two birth dates under labels as good as each other leave the identity empty; the same one printed twice does not', () => {
    const two = extractMetadata([
      ...page([[40, [[36, 'Patient: DOE, JANE'], [300, 'DOB: 01/02/1980']]]], 1),
      ...page([[40, [[36, 'Patient: ROE, RICHARD'], [300, 'DOB: 03/04/1955']]]], 2),
    ]);
    expect(two.missing).toEqual(expect.arrayContaining(['patient_last_name', 'dob']));
    const same = extractMetadata([
      ...page([[40, [[36, 'Patient: DOE, JANE'], [300, 'DOB: 01/02/1980']]]], 1),
      ...page([[40, [[36, 'Patient: Jane Doe'], [300, 'DOB: 1980-01-02']]]], 2),
    ]);
    expect(same.metadata).toMatchObject({ patient_first_name: 'JANE', patient_last_name: 'DOE', dob: '01/02/1980' });
  });

  it('a patient’s own address is not the lab’s', () => {
    const { metadata } = read([
      [40, [[36, 'Patient: Jane Doe'], [300, 'Address: 12 Elm Street, Springfield, IL 62704']]],
      [52, [[36, 'Laboratory: Lakeside Labs']]],
    ]);
    expect(metadata.lab_address).toBeUndefined();
  });

  it('a phone number or an order number is not the specimen number when an accession is printed', () => {
    const { metadata } = read([[40, [[36, 'Order #: 778812'], [200, 'Phone: 555-201-3344'], [400, 'Acc #: 24A-00991']]]]);
    expect(metadata.specimen_number).toBe('24A-00991');
  });
});

describe('value forms', () => {
  it('sex as "Sex: F", "Gender: Male", "F/45", "45 y/o female", "Age/Sex: 45/F"', () => {
    expect(read([[40, [[36, 'Sex: F']]]]).metadata.gender).toBe('female');
    expect(read([[40, [[36, 'Gender: Male']]]]).metadata.gender).toBe('male');
    expect(read([[40, [[36, 'Age/Sex: 45/F']]]]).metadata.gender).toBe('female');
    expect(read([[40, [[36, 'DOE, JANE'], [200, 'F/45']]]]).metadata.gender).toBe('female');
    expect(unlabelledGender('a 45 y/o female with fatigue')).toBe('female');
    expect(unlabelledGender('Units: mg/dL')).toBe('');
    expect(genderValue('Unknown')).toBe('');
    expect(genderValue('X')).toBe('other');
  });

  it('CLIA as "CLIA: …", "CLIA #…", "CLIA No. …"', () => {
    for (const text of ['CLIA: 05D0642827', 'CLIA #05D0642827', 'CLIA No. 05D0642827', 'CLIA#: 05d0642827']) {
      expect(read([[40, [[36, text]]]]).metadata['clia_#']).toBe('05D0642827');
    }
    expect(read([[40, [[36, 'CLIA: pending']]]]).metadata['clia_#']).toBeUndefined();
  });

  it('dates as printed, with their time: month names, dd-Mon-yyyy, 12-hour clocks', () => {
    expect(read([[40, [[36, 'Collected: 05-Jan-2024 08:30']]]]).metadata.date_collected).toBe('05-Jan-2024 08:30');
    expect(read([[40, [[36, 'Coll Date/Time: 5 Jan 2024 8:30 AM']]]]).metadata.date_collected).toBe('5 Jan 2024 8:30 AM');
    expect(read([[40, [[36, 'Drawn: January 5, 2024']]]]).metadata.date_collected).toBe('January 5, 2024');
    expect(read([[40, [[36, "Rec'd: 01/05/24 1015"]]]]).metadata.date_received).toBe('01/05/24 1015');
    expect(read([[40, [[36, "Recv'd: 01/05/2024"]]]]).metadata.date_received).toBe('01/05/2024');
    expect(read([[40, [[36, 'Final Report: 2024-01-06T14:05']]]]).metadata.date_reported).toBe('2024-01-06T14:05');
    expect(read([[40, [[36, 'D.O.B.: 02/29/1964']]]]).metadata.dob).toBe('02/29/1964');
    expect(read([[40, [[36, 'Collected: Thu, Nov 7, 2024 8:22 AM']]]]).metadata.date_collected).toBe('Thu, Nov 7, 2024 8:22 AM');
  });

  it('names: last-name-first, first-name-first, titles, suffixes, particles, apostrophes, hyphens and accents', () => {
    const cases: [string, string, string][] = [
      ['DOE, JANE A', 'JANE', 'DOE'],
      ['Doe, Jane Marie', 'Jane', 'Doe'],
      ['Jane M. Doe', 'Jane', 'Doe'],
      ['JANE DOE', 'JANE', 'DOE'],
      ['Mrs. Jane Doe', 'Jane', 'Doe'],
      ['John Smith Jr.', 'John', 'Smith'],
      ['SMITH III, JOHN', 'JOHN', 'SMITH'],
      ["Mary O'Brien", 'Mary', "O'Brien"],
      ['Maria de la Cruz', 'Maria', 'de la Cruz'],
      ['Zoë Ångström-Lévy', 'Zoë', 'Ångström-Lévy'],
      ['Ms. Doe', '', 'Doe'],
      ['DOE', '', ''],
    ];
    for (const [printed, first, last] of cases) expect(splitName(printed), printed).toEqual({ first, last });
  });
});

describe('a results letter without labels', () => {
  it('takes the full name from the subject line over "Dear Ms. …", and the collection date from "the sample you gave on …"', () => {
    const { metadata } = read([
      [40, [[72, 'Willow Creek Medical Laboratory']]],
      [64, [[72, 'November 9, 2024']]],
      [88, [[72, 'Re: Laboratory results for Yasmin Ortega (date of birth July 13, 1985)']]],
      [112, [[72, 'Dear Ms. Ortega,']]],
      [136, [[72, 'Thank you for choosing our laboratory. The blood sample you gave on November 7, 2024 has been tested, and']]],
    ]);
    expect(metadata).toMatchObject({ patient_first_name: 'Yasmin', patient_last_name: 'Ortega', date_collected: 'November 7, 2024', date_reported: 'November 9, 2024' });
  });
});

describe("an analyser's printout", () => {
  it('takes the run time for the report date, after the draw time, and no serial or lot number for the specimen', () => {
    const { metadata } = read([
      [40, [[12, 'Name:'], [71, 'KIM, FATIMA']]],
      [52, [[12, 'DOB:'], [71, '08/21/1980']]],
      [64, [[12, 'Sample ID:'], [71, 'P694429']]],
      [76, [[12, 'Drawn:'], [71, '06/22/24 09:10']]],
      [88, [[12, 'Run:'], [71, '06/22/24 09:35']]],
      [100, [[12, 'Serial no.:'], [71, 'CS350-910646']]],
      [112, [[12, 'Disc lot:'], [71, '3030X5'], [104, 'Exp 2024-08']]],
    ]);
    expect(metadata).toMatchObject({ date_collected: '06/22/24 09:10', date_reported: '06/22/24 09:35', specimen_number: 'P694429' });
  });
});

describe("a patient app's export", () => {
  it('reads "Born …", a bare sex on the identity line, "Ordered by" without a colon and a time after a comma', () => {
    const { metadata } = read([
      [40, [[48, 'Rosa O\'Neill']]],
      [52, [[48, 'Born Jul 19, 1970'], [126, '·'], [136, 'Female'], [174, '·'], [184, 'Patient ID 1655473']]],
      [76, [[48, 'Collected Nov 16, 2024, 7:15 AM'], [200, 'Resulted Nov 16, 2024, 1:45 PM']]],
      [88, [[48, 'Ordered by Kofi Osei, MD'], [160, '·'], [175, 'Performed by Coastal Carolina Clinical Lab']]],
    ]);
    expect(metadata).toMatchObject({ dob: 'Jul 19, 1970', gender: 'female', provider: 'Kofi Osei, MD', date_collected: 'Nov 16, 2024, 7:15 AM', date_reported: 'Nov 16, 2024, 1:45 PM' });
  });
});
