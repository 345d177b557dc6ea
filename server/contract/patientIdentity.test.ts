/**
 * The pure comparison of a report's patient header with the identities on the patient's orders:
 * names folded rather than dropped (accents, Polish, Nordic, German letters; Greek and Cyrillic kept
 * as letters), initials compared as initials, and a reviewed header judged as read and as corrected.
 */
import { describe, expect, it } from 'vitest';
import { compareReviewedPatient, comparePatient, nameWords, normaliseDob, normaliseName, patientCheckMessage, type PatientIdentity } from './patientIdentity';

const id = (first_name: string | null, last_name: string | null, dob: string | null = '1980-04-02'): PatientIdentity => ({ first_name, last_name, dob });

describe('names', () => {
  it('folds accents and letters without a decomposition instead of dropping them', () => {
    expect(normaliseName('Łukasz Żółć')).toBe('lukasz zolc');
    expect(normaliseName('José Núñez')).toBe('jose nunez');
    expect(normaliseName('MÜLLER')).toBe('muller');
    expect(normaliseName('Søren Strauß')).toBe('soren strauss');
    expect(normaliseName('Æsa Œuvre')).toBe('aesa oeuvre');
    expect(normaliseName("O'Brien, Mary A.")).toBe('obrien mary');
  });

  it('keeps Greek and Cyrillic letters as letters, without case', () => {
    expect(normaliseName('Иван Петров')).toBe('иван петров');
    expect(normaliseName('ИВАН')).toBe(normaliseName('Иван'));
    expect(normaliseName('ΝΙΚΟΣ ΠΑΠΑΔΟΠΟΥΛΟΣ')).toBe(normaliseName('Νίκος Παπαδόπουλος'));
  });

  it('keeps an initial as a word', () => {
    expect(nameWords('J.')).toEqual(['j']);
    expect(nameWords('J.R.')).toEqual(['j', 'r']);
    expect(nameWords('Mary-Jane')).toEqual(['mary', 'jane']);
  });
});

describe('comparePatient', () => {
  const orders = [id('Łukasz', 'Żółć')];

  it('matches non-Latin and accented names written with or without their marks', () => {
    expect(comparePatient(id('LUKASZ', 'ZOLC'), orders).status).toBe('match');
    expect(comparePatient(id('José', 'Núñez'), [id('Jose', 'Nunez')]).status).toBe('match');
    expect(comparePatient(id('Hans', 'MUELLER'), [id('Hans', 'Mueller')]).status).toBe('match');
    expect(comparePatient(id('Hans', 'Müller'), [id('HANS', 'MÜLLER')]).status).toBe('match');
    expect(comparePatient(id('Иван', 'Петров'), [id('ИВАН', 'ПЕТРОВ')]).status).toBe('match');
    expect(comparePatient(id('Иван', 'Петров'), [id('Пётр', 'Петров')])).toMatchObject({ status: 'mismatch', differences: ['name'] });
  });

  it('compares a one-letter first name as an initial, with the last name', () => {
    const smith = [id('John', 'Smith')];
    expect(comparePatient(id('J', 'Smith'), smith).status).toBe('match');
    expect(comparePatient(id('J.', 'Smith'), smith).status).toBe('match');
    expect(comparePatient(id('John', 'Smith'), [id('J.', 'Smith')]).status).toBe('match');
    expect(comparePatient(id('K.', 'Smith'), smith)).toMatchObject({ status: 'mismatch', differences: ['name'] });
    expect(comparePatient(id('J', 'Smyth'), smith)).toMatchObject({ status: 'mismatch', differences: ['name'] });
  });

  it('compares the last name alone when the first name cannot be read', () => {
    expect(comparePatient(id('—', 'Smith'), [id('John', 'Smith')]).status).toBe('match');
    expect(comparePatient(id(null, 'Jones'), [id('John', 'Smith')])).toMatchObject({ status: 'mismatch', differences: ['name'] });
  });

  it('cannot compare without orders, nor without a readable name and date of birth', () => {
    expect(comparePatient(id('John', 'Smith'), []).status).toBe('unknown');
    expect(comparePatient(id('??', '--', 'smudged'), [id('John', 'Smith')]).status).toBe('unknown');
    expect(comparePatient(id('John', 'Smith', null), [id('John', 'Smith')]).status).toBe('unknown');
  });
});

describe('a reviewed header', () => {
  const orders = [id('Ada', 'Lovelace', '1985-12-10')];

  it('is a mismatch when the header as read names someone else, even when the correction matches', () => {
    const check = compareReviewedPatient(id('Grace', 'Hopper', '1985-12-10'), id('Ada', 'Lovelace', '1985-12-10'), orders);
    expect(check).toMatchObject({ status: 'mismatch', report: { first_name: 'Ada' }, extracted: { status: 'mismatch', report: { first_name: 'Grace' }, differences: ['name'] } });
    expect(patientCheckMessage(check)).toMatch(/As read, the report was for Grace Hopper, born 1985-12-10, .*corrected in review to Ada Lovelace/);
  });

  it('is a mismatch when the correction names someone else', () => {
    expect(compareReviewedPatient(id('Ada', 'Lovelace', '1985-12-10'), id('Ada', 'King', '1985-12-10'), orders)).toMatchObject({ status: 'mismatch', differences: ['name'], extracted: { status: 'match' } });
  });

  it('cannot be verified when the review blanks what the reader read', () => {
    const check = compareReviewedPatient(id('Grace', 'Lovelace', '1985-12-10'), id('', 'Lovelace', '1985-12-10'), orders);
    expect(check.status).toBe('mismatch'); // as read, it named Grace
    const blanked = compareReviewedPatient(id('Ada', 'Lovelace', '1985-12-10'), id('Ada', 'Lovelace', ''), orders);
    expect(blanked).toMatchObject({ status: 'unknown', removed: ['date of birth'] });
    expect(patientCheckMessage(blanked)).toMatch(/The review removed the report's date of birth/);
  });

  it('matches when both agree, and is the plain check when nothing changed', () => {
    expect(compareReviewedPatient(id('ada', 'LOVELACE', '12/10/1985'), id('Ada', 'Lovelace', '1985-12-10'), orders).status).toBe('match');
    const same = compareReviewedPatient(id('Ada', 'Lovelace', '1985-12-10'), id('Ada', 'Lovelace', '1985-12-10'), orders);
    expect(same).toEqual(comparePatient(id('Ada', 'Lovelace', '1985-12-10'), orders));
  });
});

describe('what the reviewer is told', () => {
  it('says what to check when there is nothing to compare with, or the header cannot be read', () => {
    expect(patientCheckMessage(comparePatient(id('Jane', 'Okafor', '04/02/1980'), []))).toMatch(/^No identity to compare: .*Check this report \(for Jane Okafor, born 04\/02\/1980\) belongs to this patient/);
    expect(patientCheckMessage(comparePatient(id(null, null, null), [id('Ada', 'Lovelace')]))).toMatch(/^The report's patient name and date of birth could not be read: check this report belongs to Ada Lovelace, born 1980-04-02/);
    expect(patientCheckMessage(comparePatient(id('Ada', 'Lovelace', null), [id('Ada', 'Lovelace')]))).toMatch(/^The report's date of birth could not be read/);
    expect(patientCheckMessage(comparePatient(id(null, null), [id('Ada', 'Lovelace')]))).toMatch(/^The report's patient name could not be read/);
    expect(patientCheckMessage(comparePatient(id('Ada', 'Lovelace'), [id('Ada', 'Lovelace')]))).toBeNull();
  });

  it('says which field differs, in agreement', () => {
    expect(patientCheckMessage(comparePatient(id('Ada', 'King'), [id('Ada', 'Lovelace')]))).toMatch(/\(name differs\)/);
  });
});

describe('dates of birth', () => {
  it('reads ISO, US and written dates', () => {
    expect(normaliseDob('1980-4-2')).toBe('1980-04-02');
    expect(normaliseDob('04/02/1980')).toBe('1980-04-02');
    expect(normaliseDob('Apr 2, 1980')).toBe('1980-04-02');
    expect(normaliseDob('smudged')).toBeNull();
  });
});
