import { Box, Tooltip } from '@mui/material';
import InfoOutlinedIcon from '@mui/icons-material/InfoOutlined';

/** The viewer's own IANA zone, which DateField uses when it formats a date-time. */
export function viewerTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'your local time zone';
}

export function localTimeHint(): string {
  return `Times are shown in your local time zone (${viewerTimeZone()}), not the patient's.`;
}

/** A column or field label with an info icon saying the times under it are in the viewer's zone. */
export const LocalTimeLabel = ({ label }: { label: string }) => (
  <Box component="span" sx={{ display: 'inline-flex', alignItems: 'center', gap: 0.5 }}>
    {label}
    <Tooltip title={localTimeHint()}>
      <InfoOutlinedIcon fontSize="inherit" titleAccess={localTimeHint()} />
    </Tooltip>
  </Box>
);
