import { Box, Typography } from '@mui/material';
import { formatInZone, isKnownZone, viewerReadsSame, viewerZone, zoneAbbreviation } from './zonedTime';

/**
 * An instant in its own zone, with the zone's short name ("Wed, Oct 28, 2026, 8:00 AM PDT"), and
 * under it the viewer's local time when their clock reads differently. Without a usable zone it
 * falls back to the viewer's time and says so, rather than passing it off as the patient's.
 */
export const ZonedDateTime = ({
  value,
  timeZone,
  empty = 'No time yet',
}: {
  value: string | null | undefined;
  timeZone: string | null | undefined;
  empty?: string;
}) => {
  if (!value) {
    return (
      <Typography variant="body2" color="text.secondary" component="span">
        {empty}
      </Typography>
    );
  }
  const at = new Date(value);
  if (!isKnownZone(timeZone)) {
    return (
      <Box component="span" sx={{ display: 'inline-flex', flexDirection: 'column' }}>
        <time dateTime={value}>{`${formatInZone(value, viewerZone())} ${zoneAbbreviation(viewerZone(), at)}`}</time>
        <Typography variant="caption" color="text.secondary" component="span">
          Your local time: the appointment&apos;s time zone is unknown
        </Typography>
      </Box>
    );
  }
  return (
    <Box component="span" sx={{ display: 'inline-flex', flexDirection: 'column' }}>
      <time dateTime={value} title={timeZone}>
        {`${formatInZone(value, timeZone)} ${zoneAbbreviation(timeZone, at)}`}
      </time>
      {!viewerReadsSame(value, timeZone) && (
        <Typography variant="caption" color="text.secondary" component="span" data-testid="viewer-time">
          {`Your time: ${formatInZone(value, viewerZone())} ${zoneAbbreviation(viewerZone(), at)}`}
        </Typography>
      )}
    </Box>
  );
};
