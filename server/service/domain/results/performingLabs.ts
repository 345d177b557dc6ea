/**
 * The laboratories that perform the simulated tests: what a result report prints about them (CLIA
 * number, medical director, phone). The catalogue's lab rows hold name and address; these facts
 * belong to the result report only, so they live beside it.
 */
export interface PerformingLab {
  clia: string;
  director: string;
  phone: string;
  state: string;
}

const BY_SLUG: Record<string, PerformingLab> = {
  quest: { clia: '31D0696246', director: 'Anthony V. Thomas, MD', phone: '866-697-8378', state: 'NJ' },
  labcorp: { clia: '34D0655059', director: 'Sanjai Nagendra, MD', phone: '800-762-4344', state: 'NC' },
  bioreference: { clia: '31D0652272', director: 'Jon R. Cohen, MD', phone: '800-229-5227', state: 'NJ' },
  sonora_quest: { clia: '03D0529398', director: 'Sheldon Campbell, MD', phone: '602-685-5000', state: 'AZ' },
};

/** A lab the table does not know (a catalogue that grew) still gets a well-formed report. */
const UNKNOWN: PerformingLab = { clia: '00D0000000', director: 'Laboratory Director', phone: '', state: '' };

export function performingLab(slug: string): PerformingLab {
  return BY_SLUG[slug] ?? UNKNOWN;
}
