import { Box, Chip, List, ListItemButton, ListItemText, Typography } from '@mui/material';
import type { WalkInCenter } from '../../../server/bff/api';
import { zoneAbbreviation } from '../../components/zonedTime';
import { isOpenNow, todaysHours } from './centerHours';

/** The nearest centers, nearest first: pick one to see its slots. `current` marks the booked visit's center while rescheduling. */
export const CenterList = ({
  centers,
  chosen,
  current = null,
  onChoose,
}: {
  centers: WalkInCenter[];
  chosen: string | null;
  current?: string | null;
  onChoose: (siteCode: string) => void;
}) => (
  <List aria-label="Nearest centers" dense disablePadding>
    {centers.map((c) => {
      const open = isOpenNow(c);
      const zone = c.iana_timezone ? ` ${zoneAbbreviation(c.iana_timezone)}` : '';
      return (
        <ListItemButton key={c.site_code} selected={chosen === c.site_code} onClick={() => onChoose(c.site_code)} aria-label={c.name}>
          <ListItemText
            primary={
              <Box component="span" sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
                <span>{c.name}</span>
                <Chip size="small" label={open ? 'Open now' : 'Closed now'} color={open ? 'success' : 'default'} variant="outlined" />
                {current === c.site_code && <Chip size="small" label="Current visit" color="primary" variant="outlined" />}
              </Box>
            }
            secondary={
              <Typography variant="body2" color="text.secondary" component="span">
                {`${c.address.first_line}, ${c.address.city}, ${c.address.state} ${c.address.zip_code} · ${c.distance_miles.toFixed(1)} mi · Today ${todaysHours(c)}${zone}`}
              </Typography>
            }
          />
        </ListItemButton>
      );
    })}
  </List>
);
