import { describe, expect, it } from 'vitest';
import { extractMetadata } from '../../../server/service/reader/metadata';
import { page } from './helpers';

describe('report metadata', () => {
  it('reads several "Label: value" pairs on a line, names written last-name-first, and the letterhead lab', () => {
    const { metadata, missing } = extractMetadata(page([
      [40, [[36, 'Riverbend Diagnostics']]],
      [70, [[36, 'Patient Name: OKAFOR, EMILY'], [330, 'Specimen: EN123404T']]],
      [82, [[36, 'DOB: 10/20/1979   Age: 45'], [330, 'Collected: 12/24/2024 10:30 EST']]],
      [94, [[36, 'Gender: F'], [330, 'Reported: 12/26/2024 17:02 EST']]],
      [758, [[36, 'PERFORMING SITE: EN RIVERBEND DIAGNOSTICS']]],
    ]));
    expect(metadata).toEqual({
      patient_first_name: 'EMILY',
      patient_last_name: 'OKAFOR',
      dob: '10/20/1979',
      lab_name: 'Riverbend Diagnostics',
      date_collected: '12/24/2024 10:30 EST',
      date_reported: '12/26/2024 17:02 EST',
      specimen_number: 'EN123404T',
    });
    expect(missing).toEqual([]);
  });

  it('reads labels printed over their values, even OCR-damaged ones, and first-name-first names', () => {
    const { metadata } = extractMetadata(page([
      [60, [[36, 'Laboratory: Summit Reference Laboratory']]],
      [80, [[36, 'Pavent'], [150, 'Date of Bith'], [240, 'Accession #'], [340, 'Collected'], [460, 'Reported']]],
      [91, [[36, 'Olivia Z. Brennan'], [140, '1972-06-21'], [240, 'A24-7797693'], [340, '2024-01-21 09:45'], [460, '2024-01-22']]],
    ], 1, { size: 8 }));
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

  it('says what is missing, and falls back to the performing site for the lab', () => {
    const { metadata, missing } = extractMetadata(page([[70, [[36, 'Performing Lab: Lakeside Pathology Labs']]]]));
    expect(metadata.lab_name).toBe('Lakeside Pathology Labs');
    expect(missing).toEqual(['patient_first_name', 'patient_last_name', 'dob']);
  });
});
