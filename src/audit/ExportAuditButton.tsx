/**
 * The trail as CSV, with the list's current filters, oldest first: a plain download through the
 * session cookie (the export is audited, and streams however long the trail is).
 */
import { Button } from '@mui/material';
import DownloadIcon from '@mui/icons-material/Download';
import { useListContext } from 'react-admin';
import { API_URL } from '../providers/dataProvider';

export const ExportAuditButton = () => {
  const { filterValues } = useListContext();
  const href = `${API_URL}/audit-events/export?${new URLSearchParams({ filter: JSON.stringify(filterValues ?? {}) })}`;
  return (
    <Button href={href} download startIcon={<DownloadIcon />} size="small">
      Export CSV
    </Button>
  );
};
