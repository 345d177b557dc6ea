/** An endpoint's event types as chips; `*` (or none) means every type, including future ones. */
import { Box, Chip } from '@mui/material';
import { ALL_EVENT_TYPES } from './types';

export const EventTypeChips = ({ types }: { types: string[] | null | undefined }) => {
  if (!types?.length || types.includes(ALL_EVENT_TYPES)) return <Chip label="All events" variant="outlined" title="Every event type, including future ones" />;
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
      {types.map((t) => (
        <Chip key={t} label={t} variant="outlined" sx={{ fontFamily: 'monospace' }} />
      ))}
    </Box>
  );
};
