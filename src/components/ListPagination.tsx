/**
 * react-admin's <Pagination>, counted right for the lists the BFF pages by cursor (no total).
 *
 * With partial pagination (`total` undefined) react-admin hands MUI's TablePagination `count: -1`,
 * and MUI then takes a page to end at `page × perPage` whatever it holds; react-admin, seeing no
 * next page, prints that as the total: "1-25 of 25" for three rows. It hides itself only when
 * `total === 0`, so an empty list showed "1-25 of 25" beside its empty state too. Here the range
 * ends at the last row on screen ("1-3"), "of more than" is said only while the BFF says there is
 * a next page, and an empty first page leaves the list's empty state alone. Lists with a total
 * get react-admin's own pagination unchanged.
 */
import type { ComponentType } from 'react';
import type { TablePaginationProps } from '@mui/material';
import { Pagination, useListContext, useTranslate, type PaginationProps } from 'react-admin';

// react-admin passes its remaining props on to MUI's TablePagination, labelDisplayedRows included
// (after its own), but does not declare them.
const TablePaginationOfList = Pagination as ComponentType<PaginationProps & Pick<TablePaginationProps, 'labelDisplayedRows'>>;

export const ListPagination = (props: PaginationProps) => {
  const { data, hasNextPage, isPending, page, ...list } = useListContext();
  const translate = useTranslate();
  // react-admin types `total` as a number once loaded; partial pagination leaves it undefined.
  const total: number | undefined = list.total;
  if (isPending || total != null) return <Pagination {...props} />;
  const shown = data?.length ?? 0;
  if (shown === 0 && page <= 1 && !hasNextPage) return null;

  const labelDisplayedRows = ({ from }: { from: number }) => {
    if (shown === 0) return translate('ra.navigation.no_more_results', { page, _: `Nothing on page ${page}` });
    const to = from + shown - 1;
    return hasNextPage
      ? translate('ra.navigation.partial_page_range_info', { offsetBegin: from, offsetEnd: to, _: `${from}-${to} of more than ${to}` })
      : `${from}-${to}`;
  };
  return <TablePaginationOfList {...props} labelDisplayedRows={labelDisplayedRows} />;
};
