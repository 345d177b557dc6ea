/**
 * US zip code → state, IANA time zone and approximate location, by the zip's first three digits
 * (zip3). Compact: one row per state (its zip3 ranges, main zone and a central point), plus zone
 * overrides for the zip3 prefixes of multi-zone states that sit in another zone. Approximate by
 * design (a zip3 area can straddle a zone line); good enough for offering slots in local hours.
 */

export interface ZipArea {
  state: string;
  zone: string;
  lng: number;
  lat: number;
}

type Range = [number, number];
interface StateRow {
  state: string;
  ranges: Range[];
  zone: string;
  lng: number;
  lat: number;
}

const STATES: StateRow[] = [
  { state: 'PR', ranges: [[6, 7], [9, 9]], zone: 'America/Puerto_Rico', lng: -66.1, lat: 18.4 },
  { state: 'MA', ranges: [[10, 27], [55, 55]], zone: 'America/New_York', lng: -71.06, lat: 42.36 },
  { state: 'RI', ranges: [[28, 29]], zone: 'America/New_York', lng: -71.41, lat: 41.82 },
  { state: 'NH', ranges: [[30, 38]], zone: 'America/New_York', lng: -71.46, lat: 43.0 },
  { state: 'ME', ranges: [[39, 49]], zone: 'America/New_York', lng: -70.26, lat: 43.66 },
  { state: 'VT', ranges: [[50, 54], [56, 59]], zone: 'America/New_York', lng: -73.21, lat: 44.48 },
  { state: 'CT', ranges: [[60, 69]], zone: 'America/New_York', lng: -72.68, lat: 41.76 },
  { state: 'NJ', ranges: [[70, 89]], zone: 'America/New_York', lng: -74.17, lat: 40.74 },
  { state: 'NY', ranges: [[5, 5], [100, 149]], zone: 'America/New_York', lng: -74.0, lat: 40.71 },
  { state: 'PA', ranges: [[150, 196]], zone: 'America/New_York', lng: -75.16, lat: 39.95 },
  { state: 'DE', ranges: [[197, 199]], zone: 'America/New_York', lng: -75.55, lat: 39.74 },
  { state: 'DC', ranges: [[200, 200], [202, 205], [569, 569]], zone: 'America/New_York', lng: -77.04, lat: 38.9 },
  { state: 'MD', ranges: [[206, 219]], zone: 'America/New_York', lng: -76.61, lat: 39.29 },
  { state: 'VA', ranges: [[201, 201], [220, 246]], zone: 'America/New_York', lng: -77.44, lat: 37.54 },
  { state: 'WV', ranges: [[247, 268]], zone: 'America/New_York', lng: -81.63, lat: 38.35 },
  { state: 'NC', ranges: [[270, 289]], zone: 'America/New_York', lng: -78.64, lat: 35.78 },
  { state: 'SC', ranges: [[290, 299]], zone: 'America/New_York', lng: -81.03, lat: 34.0 },
  { state: 'GA', ranges: [[300, 319], [398, 399]], zone: 'America/New_York', lng: -84.39, lat: 33.75 },
  { state: 'FL', ranges: [[320, 339], [341, 349]], zone: 'America/New_York', lng: -81.38, lat: 28.54 },
  { state: 'AL', ranges: [[350, 369]], zone: 'America/Chicago', lng: -86.8, lat: 33.52 },
  { state: 'TN', ranges: [[370, 385]], zone: 'America/Chicago', lng: -86.78, lat: 36.16 },
  { state: 'MS', ranges: [[386, 397]], zone: 'America/Chicago', lng: -90.18, lat: 32.3 },
  { state: 'KY', ranges: [[400, 427]], zone: 'America/New_York', lng: -85.76, lat: 38.25 },
  { state: 'OH', ranges: [[430, 459]], zone: 'America/New_York', lng: -82.99, lat: 39.96 },
  { state: 'IN', ranges: [[460, 479]], zone: 'America/Indiana/Indianapolis', lng: -86.16, lat: 39.77 },
  { state: 'MI', ranges: [[480, 499]], zone: 'America/Detroit', lng: -83.05, lat: 42.33 },
  { state: 'IA', ranges: [[500, 528]], zone: 'America/Chicago', lng: -93.61, lat: 41.59 },
  { state: 'WI', ranges: [[530, 549]], zone: 'America/Chicago', lng: -87.91, lat: 43.04 },
  { state: 'MN', ranges: [[550, 567]], zone: 'America/Chicago', lng: -93.27, lat: 44.98 },
  { state: 'SD', ranges: [[570, 577]], zone: 'America/Chicago', lng: -96.73, lat: 43.55 },
  { state: 'ND', ranges: [[580, 588]], zone: 'America/Chicago', lng: -96.79, lat: 46.88 },
  { state: 'MT', ranges: [[590, 599]], zone: 'America/Denver', lng: -108.5, lat: 45.78 },
  { state: 'IL', ranges: [[600, 629]], zone: 'America/Chicago', lng: -87.63, lat: 41.88 },
  { state: 'MO', ranges: [[630, 658]], zone: 'America/Chicago', lng: -90.2, lat: 38.63 },
  { state: 'KS', ranges: [[660, 679]], zone: 'America/Chicago', lng: -97.34, lat: 37.69 },
  { state: 'NE', ranges: [[680, 693]], zone: 'America/Chicago', lng: -95.93, lat: 41.26 },
  { state: 'LA', ranges: [[700, 714]], zone: 'America/Chicago', lng: -90.07, lat: 29.95 },
  { state: 'AR', ranges: [[716, 729]], zone: 'America/Chicago', lng: -92.29, lat: 34.75 },
  { state: 'OK', ranges: [[730, 749]], zone: 'America/Chicago', lng: -97.52, lat: 35.47 },
  { state: 'TX', ranges: [[750, 799], [885, 885]], zone: 'America/Chicago', lng: -95.37, lat: 29.76 },
  { state: 'CO', ranges: [[800, 816]], zone: 'America/Denver', lng: -104.99, lat: 39.74 },
  { state: 'WY', ranges: [[820, 831]], zone: 'America/Denver', lng: -104.82, lat: 41.14 },
  { state: 'ID', ranges: [[832, 838]], zone: 'America/Boise', lng: -116.2, lat: 43.62 },
  { state: 'UT', ranges: [[840, 847]], zone: 'America/Denver', lng: -111.89, lat: 40.76 },
  { state: 'AZ', ranges: [[850, 865]], zone: 'America/Phoenix', lng: -112.07, lat: 33.45 },
  { state: 'NM', ranges: [[870, 884]], zone: 'America/Denver', lng: -106.65, lat: 35.08 },
  { state: 'NV', ranges: [[889, 898]], zone: 'America/Los_Angeles', lng: -115.14, lat: 36.17 },
  { state: 'CA', ranges: [[900, 961]], zone: 'America/Los_Angeles', lng: -118.24, lat: 34.05 },
  { state: 'HI', ranges: [[967, 968]], zone: 'Pacific/Honolulu', lng: -157.86, lat: 21.31 },
  { state: 'OR', ranges: [[970, 979]], zone: 'America/Los_Angeles', lng: -122.68, lat: 45.52 },
  { state: 'WA', ranges: [[980, 994]], zone: 'America/Los_Angeles', lng: -122.33, lat: 47.61 },
  { state: 'AK', ranges: [[995, 999]], zone: 'America/Anchorage', lng: -149.9, lat: 61.22 },
];

/** zip3 prefixes of multi-zone states that are in another zone than the state's main one. */
const ZONE_OVERRIDES: { zip3: Range; zone: string; lng: number; lat: number }[] = [
  // Florida panhandle (Pensacola, Panama City): Central.
  { zip3: [324, 325], zone: 'America/Chicago', lng: -87.22, lat: 30.42 },
  // East Tennessee (Chattanooga, Johnson City, Knoxville): Eastern.
  { zip3: [373, 374], zone: 'America/New_York', lng: -85.31, lat: 35.05 },
  { zip3: [376, 379], zone: 'America/New_York', lng: -83.92, lat: 35.96 },
  // Western Kentucky (Paducah, Bowling Green, Owensboro): Central.
  { zip3: [420, 424], zone: 'America/Chicago', lng: -88.6, lat: 37.08 },
  // Northwest Indiana (Gary) and Evansville: Central.
  { zip3: [463, 464], zone: 'America/Chicago', lng: -87.35, lat: 41.59 },
  { zip3: [476, 477], zone: 'America/Chicago', lng: -87.57, lat: 37.97 },
  // Michigan's Upper Peninsula along Wisconsin: Central (America/Menominee).
  { zip3: [498, 499], zone: 'America/Menominee', lng: -87.61, lat: 45.11 },
  // West River South Dakota (Rapid City), southwest North Dakota, the Nebraska panhandle: Mountain.
  { zip3: [577, 577], zone: 'America/Denver', lng: -103.23, lat: 44.08 },
  { zip3: [586, 586], zone: 'America/Denver', lng: -102.79, lat: 46.88 },
  { zip3: [693, 693], zone: 'America/Denver', lng: -103.67, lat: 41.87 },
  // West Texas (El Paso): Mountain.
  { zip3: [798, 799], zone: 'America/Denver', lng: -106.49, lat: 31.76 },
  { zip3: [885, 885], zone: 'America/Denver', lng: -106.49, lat: 31.76 },
  // North Idaho panhandle: Pacific.
  { zip3: [838, 838], zone: 'America/Los_Angeles', lng: -116.78, lat: 47.68 },
  // Malheur County, Oregon (Ontario): Mountain.
  { zip3: [979, 979], zone: 'America/Boise', lng: -116.96, lat: 44.03 },
];

const BY_ZIP3 = new Map<number, ZipArea>();
for (const row of STATES) {
  for (const [lo, hi] of row.ranges) {
    for (let z = lo; z <= hi; z += 1) BY_ZIP3.set(z, { state: row.state, zone: row.zone, lng: row.lng, lat: row.lat });
  }
}
for (const o of ZONE_OVERRIDES) {
  for (let z = o.zip3[0]; z <= o.zip3[1]; z += 1) {
    const base = BY_ZIP3.get(z);
    if (base) BY_ZIP3.set(z, { ...base, zone: o.zone, lng: o.lng, lat: o.lat });
  }
}

export const zip3Of = (zip: string): string => zip.slice(0, 3);

/** The area of a zip code (5 digits, optionally -4), or undefined when the prefix is not a US state's. */
export function zipArea(zip: string): ZipArea | undefined {
  if (!/^\d{5}(-\d{4})?$/.test(zip)) return undefined;
  return BY_ZIP3.get(Number(zip.slice(0, 3)));
}

/** Every zip3 prefix the table knows, with its area (for tests and documentation). */
export function allZipAreas(): [number, ZipArea][] {
  return [...BY_ZIP3.entries()].sort((a, b) => a[0] - b[0]);
}
