/**
 * Where a patient is: a small table of ZIP codes of the metros the walk-in catalogue covers, with
 * the zip3 area's central point (appointments/zips.ts) as the fallback, and great-circle distance.
 * Approximate by design: a ZIP code's centre, not the patient's door.
 */
import { zipArea } from '../appointments/zips';

export interface Point {
  lat: number;
  lng: number;
}

/** ZIP → centre, for the catalogue's metros (New York, Chicago, Denver, Phoenix, Los Angeles). */
const ZIP_POINTS: Record<string, Point> = {
  // New York
  '10001': { lat: 40.7506, lng: -73.9972 },
  '10013': { lat: 40.7201, lng: -74.0049 },
  '10025': { lat: 40.7986, lng: -73.9666 },
  '10128': { lat: 40.7813, lng: -73.95 },
  '11201': { lat: 40.6943, lng: -73.9903 },
  '11215': { lat: 40.6627, lng: -73.9863 },
  '11375': { lat: 40.7211, lng: -73.8463 },
  '10451': { lat: 40.8201, lng: -73.9238 },
  '07302': { lat: 40.7197, lng: -74.0466 },
  // Chicago
  '60601': { lat: 41.8858, lng: -87.6181 },
  '60614': { lat: 41.9227, lng: -87.6533 },
  '60622': { lat: 41.9024, lng: -87.6767 },
  '60637': { lat: 41.7813, lng: -87.6051 },
  '60201': { lat: 42.0546, lng: -87.6943 },
  // Denver
  '80202': { lat: 39.7525, lng: -104.9995 },
  '80206': { lat: 39.7316, lng: -104.9528 },
  '80210': { lat: 39.679, lng: -104.9631 },
  '80033': { lat: 39.7739, lng: -105.0962 },
  // Phoenix
  '85004': { lat: 33.4515, lng: -112.0685 },
  '85016': { lat: 33.5097, lng: -112.0309 },
  '85281': { lat: 33.4285, lng: -111.9305 },
  '85301': { lat: 33.5312, lng: -112.1767 },
  // Los Angeles
  '90012': { lat: 34.0614, lng: -118.2385 },
  '90024': { lat: 34.0633, lng: -118.4357 },
  '90028': { lat: 34.0998, lng: -118.3267 },
  '90401': { lat: 34.0166, lng: -118.4929 },
  '91101': { lat: 34.1467, lng: -118.139 },
};

/** The ZIP code's centre: from the metro table, else its zip3 area's point; undefined when unknown. */
export function zipPoint(zip: string): Point | undefined {
  const five = zip.slice(0, 5);
  const known = ZIP_POINTS[five];
  if (known) return known;
  const area = zipArea(five);
  return area ? { lat: area.lat, lng: area.lng } : undefined;
}

const EARTH_RADIUS_MILES = 3958.8;
const rad = (deg: number) => (deg * Math.PI) / 180;

/** Great-circle distance in miles (haversine), rounded to a tenth. */
export function milesBetween(a: Point, b: Point): number {
  const dLat = rad(b.lat - a.lat);
  const dLng = rad(b.lng - a.lng);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.lat)) * Math.cos(rad(b.lat)) * Math.sin(dLng / 2) ** 2;
  return Math.round(2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h))) * 10) / 10;
}
