import { Card, CardContent, CardHeader, List, ListItem, ListItemAvatar, ListItemText, Typography } from '@mui/material';
import { useRecordContext } from 'react-admin';
import { ProviderAvatar } from '../components/ProviderAvatar';
import { sourceName } from '../components/SourceChips';
import { viewerTimeZone } from '../components/LocalTimeLabel';
import type { UserRecord } from './types';

const connectedOn = (iso: string) => {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
};

/** Each provider the patient connected, and when (in the viewer's time, like every date-time here). */
export const ConnectedSources = () => {
  const record = useRecordContext<UserRecord>();
  if (!record) return null;
  const sources = Array.isArray(record.connected_sources) ? record.connected_sources : [];
  return (
    <Card>
      <CardHeader title="Connected sources" subheader={`Times in your local time zone (${viewerTimeZone()})`} />
      <CardContent sx={{ pt: 0 }}>
        {sources.length === 0 ? (
          <Typography color="text.secondary">No sources connected yet.</Typography>
        ) : (
          <List dense aria-label="Connected sources">
            {sources.map((source, index) => {
              const name = sourceName(source);
              return (
                <ListItem key={`${source.provider?.slug ?? name}-${index}`} disableGutters>
                  <ListItemAvatar>
                    <ProviderAvatar name={name} slug={source.provider?.slug ?? name} size={36} />
                  </ListItemAvatar>
                  <ListItemText primary={name} secondary={`Connected ${connectedOn(source.created_on)}`} />
                </ListItem>
              );
            })}
          </List>
        )}
      </CardContent>
    </Card>
  );
};
