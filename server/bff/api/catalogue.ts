import type { z } from 'zod';
import { Lab, LabAccount, LabTest, MarkerComplete } from '../../contract';
import { filter, listQuery, sortable } from './list';

export const LabAccountRecord = LabAccount.meta({ id: 'LabAccountRecord' });
export type LabAccountRecord = z.infer<typeof LabAccountRecord>;
export const LabRecord = Lab.meta({ id: 'LabRecord' });
export type LabRecord = z.infer<typeof LabRecord>;
export const LabTestRecord = LabTest.meta({ id: 'LabTestRecord' });
export type LabTestRecord = z.infer<typeof LabTestRecord>;
/** Markers keep the service's integer `id`. */
export const MarkerRecord = MarkerComplete.meta({ id: 'MarkerRecord' });
export type MarkerRecord = z.infer<typeof MarkerRecord>;

export const LabAccountsList = listQuery({
  filter: { status: filter.stringList(), lab: filter.stringList(), q: filter.string(200) },
  sort: sortable('id', 'lab', 'status', 'account_name'),
  defaultSort: { field: 'id', order: 'ASC' },
});

export const LabsList = listQuery({
  filter: { slug: filter.string(64), lab_id: filter.intList() },
  sort: sortable('id', 'name', 'slug'),
  defaultSort: { field: 'id', order: 'ASC' },
});

export const LabTestsList = listQuery({
  filter: { lab_slug: filter.string(64), collection_method: filter.string(40), status: filter.string(40), q: filter.string(200) },
  sort: sortable('id', 'name', 'price'),
  defaultSort: { field: 'id', order: 'ASC' },
});

/** The service lists markers in its own order only. */
export const MarkersList = listQuery({
  filter: {
    lab_slug: filter.string(64),
    lab_id: filter.intList(),
    q: filter.string(200),
    a_la_carte_enabled: filter.boolean(),
    lab_account_id: filter.uuid(),
  },
  sort: { id: ['ASC'] },
  defaultSort: { field: 'id', order: 'ASC' },
});
