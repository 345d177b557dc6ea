import { SelectInput, useGetList, type SelectInputProps } from 'react-admin';
import type { LabRecord } from './types';

/** The labs of the catalogue (`GET /api/labs`), keyed by their integer id. */
export function useLabs() {
  const { data, isPending } = useGetList<LabRecord>('labs', {
    pagination: { page: 1, perPage: 100 },
    sort: { field: 'name', order: 'ASC' },
  });
  return { labs: data ?? [], isPending };
}

/** A select of the catalogue's labs whose value is the lab's slug (what the markers filter takes). */
export const LabSelectInput = (props: Omit<SelectInputProps, 'choices'>) => {
  const { labs, isPending } = useLabs();
  return (
    <SelectInput
      emptyText="Any lab"
      {...props}
      isPending={isPending}
      choices={labs.map((l) => ({ id: l.slug, name: l.name }))}
    />
  );
};
