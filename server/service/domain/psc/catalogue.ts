/**
 * The simulated patient service centers (walk-in draw sites) of each lab: deterministic data, the
 * same on every start, so site codes in booking keys and appointments stay valid. Each metro has a
 * handful of sites; each lab runs centers at some of them (Sonora Quest only in Phoenix). Opening
 * hours are wall-clock times in the center's own zone.
 */

export type Weekday = 'monday' | 'tuesday' | 'wednesday' | 'thursday' | 'friday' | 'saturday' | 'sunday';
export const WEEKDAYS: Weekday[] = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

/** Opening hours of one day, "HH:MM" in the center's zone; a closed day has no entry. */
export interface DayHours {
  open: string;
  close: string;
}

export interface PscCenter {
  siteCode: string;
  labId: number;
  lab: string;
  name: string;
  firstLine: string;
  city: string;
  state: string;
  zipCode: string;
  phone: string;
  lat: number;
  lng: number;
  zone: string;
  hours: Partial<Record<Weekday, DayHours>>;
  capabilities: string[];
  billTypes: string[];
  /** Patients one 15-minute slot takes (one per draw station). */
  stations: number;
}

interface Site {
  area: string;
  firstLine: string;
  city: string;
  state: string;
  zipCode: string;
  lat: number;
  lng: number;
}

interface Metro {
  code: string;
  zone: string;
  sites: Site[];
}

const METROS: Metro[] = [
  {
    code: 'NYC',
    zone: 'America/New_York',
    sites: [
      { area: 'Midtown West', firstLine: '350 W 31st St', city: 'New York', state: 'NY', zipCode: '10001', lat: 40.7512, lng: -73.9962 },
      { area: 'Tribeca', firstLine: '90 Hudson St', city: 'New York', state: 'NY', zipCode: '10013', lat: 40.7192, lng: -74.0085 },
      { area: 'Upper East Side', firstLine: '1470 Lexington Ave', city: 'New York', state: 'NY', zipCode: '10128', lat: 40.7828, lng: -73.9508 },
      { area: 'Brooklyn Heights', firstLine: '160 Montague St', city: 'Brooklyn', state: 'NY', zipCode: '11201', lat: 40.6946, lng: -73.9929 },
      { area: 'Forest Hills', firstLine: '107-40 Queens Blvd', city: 'Forest Hills', state: 'NY', zipCode: '11375', lat: 40.7197, lng: -73.8443 },
    ],
  },
  {
    code: 'CHI',
    zone: 'America/Chicago',
    sites: [
      { area: 'The Loop', firstLine: '150 N Michigan Ave', city: 'Chicago', state: 'IL', zipCode: '60601', lat: 41.8847, lng: -87.6245 },
      { area: 'Lincoln Park', firstLine: '2551 N Clark St', city: 'Chicago', state: 'IL', zipCode: '60614', lat: 41.9296, lng: -87.6439 },
      { area: 'Hyde Park', firstLine: '1525 E 53rd St', city: 'Chicago', state: 'IL', zipCode: '60615', lat: 41.7995, lng: -87.5882 },
      { area: 'Evanston', firstLine: '1000 Central St', city: 'Evanston', state: 'IL', zipCode: '60201', lat: 42.0643, lng: -87.6974 },
    ],
  },
  {
    code: 'DEN',
    zone: 'America/Denver',
    sites: [
      { area: 'Downtown', firstLine: '1660 Lincoln St', city: 'Denver', state: 'CO', zipCode: '80264', lat: 39.7435, lng: -104.9859 },
      { area: 'Cherry Creek', firstLine: '3773 Cherry Creek N Dr', city: 'Denver', state: 'CO', zipCode: '80209', lat: 39.7164, lng: -104.9507 },
      { area: 'Wheat Ridge', firstLine: '3400 Lutheran Pkwy', city: 'Wheat Ridge', state: 'CO', zipCode: '80033', lat: 39.7665, lng: -105.0854 },
    ],
  },
  {
    code: 'PHX',
    zone: 'America/Phoenix',
    sites: [
      { area: 'Downtown', firstLine: '1300 N 12th St', city: 'Phoenix', state: 'AZ', zipCode: '85006', lat: 33.4622, lng: -112.0575 },
      { area: 'Biltmore', firstLine: '2222 E Highland Ave', city: 'Phoenix', state: 'AZ', zipCode: '85016', lat: 33.5085, lng: -112.0319 },
      { area: 'Tempe', firstLine: '1500 N McClintock Dr', city: 'Tempe', state: 'AZ', zipCode: '85281', lat: 33.4425, lng: -111.9099 },
      { area: 'Glendale', firstLine: '5757 W Thunderbird Rd', city: 'Glendale', state: 'AZ', zipCode: '85306', lat: 33.6117, lng: -112.1853 },
    ],
  },
  {
    code: 'LAX',
    zone: 'America/Los_Angeles',
    sites: [
      { area: 'Downtown', firstLine: '1245 Wilshire Blvd', city: 'Los Angeles', state: 'CA', zipCode: '90017', lat: 34.0537, lng: -118.2647 },
      { area: 'Westwood', firstLine: '10921 Wilshire Blvd', city: 'Los Angeles', state: 'CA', zipCode: '90024', lat: 34.0595, lng: -118.4442 },
      { area: 'Hollywood', firstLine: '6430 Sunset Blvd', city: 'Los Angeles', state: 'CA', zipCode: '90028', lat: 34.0978, lng: -118.3297 },
      { area: 'Santa Monica', firstLine: '2020 Santa Monica Blvd', city: 'Santa Monica', state: 'CA', zipCode: '90404', lat: 34.0301, lng: -118.4808 },
      { area: 'Pasadena', firstLine: '625 E Colorado Blvd', city: 'Pasadena', state: 'CA', zipCode: '91101', lat: 34.1458, lng: -118.1368 },
    ],
  },
];

interface LabRow {
  id: number;
  slug: string;
  brand: string;
  prefix: string;
  metros: string[];
}

/** Lab ids and slugs as in the lab catalogue (seed/labCatalogue.ts). */
const LABS: LabRow[] = [
  { id: 1, slug: 'quest', brand: 'Quest Diagnostics', prefix: 'QD', metros: ['NYC', 'CHI', 'DEN', 'PHX', 'LAX'] },
  { id: 2, slug: 'labcorp', brand: 'Labcorp', prefix: 'LC', metros: ['NYC', 'CHI', 'DEN', 'PHX', 'LAX'] },
  { id: 3, slug: 'bioreference', brand: 'BioReference', prefix: 'BR', metros: ['NYC', 'LAX'] },
  { id: 4, slug: 'sonora_quest', brand: 'Sonora Quest', prefix: 'SQ', metros: ['PHX'] },
];

/** Hour patterns, picked per center so neighbours differ (some open Saturdays, one early bird). */
const WEEK = (open: string, close: string): Partial<Record<Weekday, DayHours>> => ({
  monday: { open, close },
  tuesday: { open, close },
  wednesday: { open, close },
  thursday: { open, close },
  friday: { open, close },
});
const HOUR_PATTERNS: Partial<Record<Weekday, DayHours>>[] = [
  { ...WEEK('07:00', '17:00'), saturday: { open: '08:00', close: '12:00' } },
  WEEK('08:00', '16:30'),
  { ...WEEK('06:30', '15:00'), saturday: { open: '07:00', close: '11:00' } },
  { ...WEEK('07:30', '18:00'), saturday: { open: '09:00', close: '13:00' }, sunday: { open: '09:00', close: '12:00' } },
];

const BILL_TYPES = ['client_bill', 'commercial_insurance', 'patient_bill'];

function buildCatalogue(): PscCenter[] {
  const out: PscCenter[] = [];
  for (const lab of LABS) {
    for (const metro of METROS.filter((m) => lab.metros.includes(m.code))) {
      metro.sites.forEach((site, i) => {
        // Every lab skips one site in four (a different one per lab) so lists differ between labs.
        if ((i + lab.id) % 4 === 0 && metro.sites.length > 3) return;
        const n = String(i + 1).padStart(2, '0');
        out.push({
          siteCode: `${lab.prefix}-${metro.code}-${n}`,
          labId: lab.id,
          lab: lab.slug,
          name: `${lab.brand} – ${site.area}`,
          firstLine: site.firstLine,
          city: site.city,
          state: site.state,
          zipCode: site.zipCode,
          phone: `+1 555 01${lab.id}${n}`,
          // Labs at one site sit in neighbouring storefronts, not on one point.
          lat: Math.round((site.lat + lab.id * 0.0011) * 1e4) / 1e4,
          lng: Math.round((site.lng - lab.id * 0.0009) * 1e4) / 1e4,
          zone: metro.zone,
          hours: HOUR_PATTERNS[(i + lab.id) % HOUR_PATTERNS.length]!,
          capabilities: (i + lab.id) % 3 === 0 ? ['appointment_scheduling_with_lab', 'stat'] : ['appointment_scheduling_with_lab'],
          billTypes: lab.slug === 'sonora_quest' ? ['client_bill', 'patient_bill'] : BILL_TYPES,
          stations: 1 + ((i + lab.id) % 2),
        });
      });
    }
  }
  return out;
}

export const PSC_CENTERS: readonly PscCenter[] = buildCatalogue();
const BY_SITE = new Map(PSC_CENTERS.map((c) => [c.siteCode, c]));

export const pscCenter = (siteCode: string): PscCenter | undefined => BY_SITE.get(siteCode);
export const pscLab = (slugOrId: string | number): LabRow | undefined => LABS.find((l) => l.slug === slugOrId || l.id === slugOrId);
export const PSC_LAB_SLUGS = LABS.map((l) => l.slug);
