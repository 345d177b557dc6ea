import { DEFAULT_PSC_RADIUS, type AreaInfo, type LabLocation, type PscInfo } from '../../../contract';
import { providersServing } from '../../providers';
import { Invalid } from '../errors';
import { areaLabsForAccount } from './accountLab';
import { PSC_CENTERS, PSC_LAB_SLUGS, pscLab, WEEKDAYS, type PscCenter } from './catalogue';
import { milesBetween, zipPoint, type Point } from './geo';

export interface NearCenter {
  center: PscCenter;
  distance: number;
}

/** The patient's point; 422 at `loc` when the ZIP code is not in a known US area. */
export function patientPoint(zip: string, loc: (string | number)[]): Point {
  const point = zipPoint(zip);
  if (!point) throw new Invalid(loc, `zip_code ${zip} is not in a known US zip code area`, 'value_error.zip_code');
  return point;
}

/** The lab's centers within `radius` miles of the point, nearest first (ties by site code). */
export function centersNear(labId: number, point: Point, radius: string = DEFAULT_PSC_RADIUS, capabilities: string[] = []): NearCenter[] {
  const limit = Number(radius);
  return PSC_CENTERS.filter((c) => c.labId === labId && capabilities.every((cap) => c.capabilities.includes(cap)))
    .map((center) => ({ center, distance: milesBetween(point, center) }))
    .filter((n) => n.distance <= limit)
    .sort((a, b) => a.distance - b.distance || a.center.siteCode.localeCompare(b.center.siteCode));
}

/** Opening hours per weekday in the center's zone (null when closed), with the zone itself. */
export function centerHours(center: PscCenter): Record<string, unknown> {
  const days = Object.fromEntries(WEEKDAYS.map((d) => [d, center.hours[d] ?? null]));
  return { ...days, iana_timezone: center.zone };
}

export function presentLocation({ center, distance }: NearCenter): LabLocation {
  return {
    metadata: {
      name: center.name,
      state: center.state,
      city: center.city,
      zip_code: center.zipCode,
      first_line: center.firstLine,
      phone_number: center.phone,
      hours: centerHours(center),
    },
    distance,
    site_code: center.siteCode,
    supported_bill_types: center.billTypes,
    location: { lng: center.lng, lat: center.lat },
    capabilities: center.capabilities,
  };
}

/** 422 at `loc` for a lab id the catalogue does not know. */
export function labById(labId: number, loc: (string | number)[]) {
  const lab = pscLab(labId);
  if (!lab) throw new Invalid(loc, `lab_id ${labId} is not a lab with patient service centers`, 'value_error.lab_id');
  return lab;
}

export function pscInfo(labId: number, zip: string, radius: string | undefined, capabilities: string[] | undefined): PscInfo {
  const lab = labById(labId, ['query', 'lab_id']);
  const point = patientPoint(zip, ['query', 'zip_code']);
  return { lab_id: lab.id, slug: lab.slug, patient_service_centers: centersNear(lab.id, point, radius, capabilities).map(presentLocation) };
}

/**
 * Which labs have centers near the ZIP code, and which phlebotomy providers serve it. With
 * `accountSlug` (the lab of the query's lab account) only that lab is listed.
 */
export function areaInfo(zip: string, radius: string = DEFAULT_PSC_RADIUS, labs: string[] = [], accountSlug?: string): AreaInfo {
  const point = patientPoint(zip, ['query', 'zip_code']);
  const unknown = labs.find((l) => !pscLab(l));
  if (unknown) throw new Invalid(['query', 'lab'], `lab ${unknown} is not a lab with patient service centers (${PSC_LAB_SLUGS.join(', ')})`, 'value_error.lab');
  const wanted =
    accountSlug !== undefined ? areaLabsForAccount(labs, accountSlug) : labs.length > 0 ? PSC_LAB_SLUGS.filter((s) => labs.includes(s)) : PSC_LAB_SLUGS;
  const providers = providersServing(zip.slice(0, 5));
  return {
    zip_code: zip,
    phlebotomy: { is_served: providers.length > 0, providers: providers.map((p) => ({ name: p.slug, service_types: ['appointment-request'] })) },
    central_labs: Object.fromEntries(
      wanted.map((slug) => {
        const lab = pscLab(slug)!;
        const near = centersNear(lab.id, point, radius);
        return [
          slug,
          {
            patient_service_centers: {
              appointment_with_vital: near.some((n) => n.center.capabilities.includes('appointment_scheduling_with_lab')),
              within_radius: near.length,
              radius,
              capabilities: [...new Set(near.flatMap((n) => n.center.capabilities))].sort(),
            },
            supported_bill_types: [...new Set(near.flatMap((n) => n.center.billTypes))].sort(),
            lab_id: lab.id,
          },
        ];
      }),
    ),
  };
}
