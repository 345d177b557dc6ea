/**
 * A list row that opens by keyboard as it opens by click: Tab focuses it, Enter opens it. Every
 * DataTable uses it (the theme makes it the rows' default), so each list gets it without asking;
 * a row that does nothing on click (rowClick={false}, no page to open) stays out of the Tab order.
 */
import { forwardRef, type KeyboardEvent } from 'react';
import { DataTableRow, useDataTableCallbacksContext, useResourceDefinition, type DataTableRowProps } from 'react-admin';
import type { SxProps, Theme } from '@mui/material/styles';

const FOCUS: SxProps<Theme> = { '&:focus-visible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: -2 } };

export const KeyboardRow = forwardRef<HTMLTableRowElement, DataTableRowProps>(function KeyboardRow({ sx, onKeyDown, ...props }, ref) {
  const { rowClick } = useDataTableCallbacksContext();
  const { hasShow, hasEdit } = useResourceDefinition();
  // As DataTableRow decides it: no rowClick means "open the record's page" when there is one.
  const opens = rowClick === undefined ? hasShow || hasEdit : rowClick !== false;
  if (!opens) return <DataTableRow ref={ref} sx={sx} onKeyDown={onKeyDown} {...props} />;
  const openOnEnter = (e: KeyboardEvent<HTMLTableRowElement>) => {
    onKeyDown?.(e);
    // Only the row itself: Enter on a link or button inside it does what that control does.
    if (e.key !== 'Enter' || e.target !== e.currentTarget || e.defaultPrevented) return;
    e.preventDefault();
    e.currentTarget.click();
  };
  return <DataTableRow ref={ref} tabIndex={0} onKeyDown={openOnEnter} sx={[FOCUS, ...(Array.isArray(sx) ? sx : [sx])]} {...props} />;
});
