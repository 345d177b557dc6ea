/**
 * react-admin's data provider for the BFF: ra-data-simple-rest, plus what it cannot read.
 *
 * ra-data-simple-rest parses `Content-Range: users 0-24/*` as a total of NaN, which breaks the
 * pagination of every cursor-paginated resource. So getList is ours (same URL conventions), and
 * turns `/*` + `X-Has-Next-Page` into react-admin's partial pagination (`pageInfo`).
 */
import simpleRestProvider from 'ra-data-simple-rest';
import type { GetListParams, GetListResult } from 'react-admin';
import { httpClient } from './httpClient';
import type { DateRange, LabdeskDataProvider, MindfulnessMinutes } from './types';

export const API_URL = '/api';

/** Parses the `Content-Range` of a list answer into a total, or `null` when the BFF has none (`/*`). */
export function parseContentRange(header: string): number | null {
  const total = header.split('/').pop()?.trim() ?? '';
  if (total === '*') return null;
  const parsed = Number.parseInt(total, 10);
  if (Number.isNaN(parsed)) throw new Error(`Unreadable Content-Range header: "${header}"`);
  return parsed;
}

export async function getList(resource: string, params: GetListParams): Promise<GetListResult> {
  const { page, perPage } = params.pagination ?? { page: 1, perPage: 25 };
  const { field, order } = params.sort ?? { field: 'id', order: 'ASC' };
  const rangeStart = (page - 1) * perPage;
  const rangeEnd = page * perPage - 1;
  const query = new URLSearchParams({
    sort: JSON.stringify([field, order]),
    range: JSON.stringify([rangeStart, rangeEnd]),
    filter: JSON.stringify(params.filter ?? {}),
  });
  const { headers, json } = await httpClient(`${API_URL}/${resource}?${query}`, {
    // Some browsers only expose Content-Range when the request carried a Range header.
    headers: { Range: `${resource}=${rangeStart}-${rangeEnd}` },
    signal: params.signal,
  });
  const contentRange = headers.get('Content-Range');
  if (!contentRange) {
    throw new Error(`The BFF answered /${resource} without a Content-Range header, so the list cannot be paginated.`);
  }
  const data = json as GetListResult['data'];
  const total = parseContentRange(contentRange);
  if (total !== null) return { data, total };
  return {
    data,
    pageInfo: { hasNextPage: headers.get('X-Has-Next-Page') === 'true', hasPreviousPage: page > 1 },
  };
}

async function getMindfulnessMinutes(userId: string, range: DateRange): Promise<MindfulnessMinutes> {
  const query = new URLSearchParams({ start_date: range.start_date, end_date: range.end_date });
  const { json } = await httpClient(`${API_URL}/users/${encodeURIComponent(userId)}/mindfulness-minutes?${query}`);
  return json as MindfulnessMinutes;
}

const simpleRest = simpleRestProvider(API_URL, httpClient);

export const dataProvider: LabdeskDataProvider = {
  ...simpleRest,
  getList,
  getMindfulnessMinutes,
};
