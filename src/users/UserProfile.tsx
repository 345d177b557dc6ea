import { Card, CardContent, CardHeader, Typography } from '@mui/material';
import { DateField, FunctionField, SimpleShowLayout, TextField } from 'react-admin';
import { LocalTimeLabel } from '../components/LocalTimeLabel';
import type { UserRecord } from './types';

const Muted = ({ children }: { children: string }) => (
  <Typography variant="body2" color="text.secondary" component="span">
    {children}
  </Typography>
);

// An ingestion bound of null means "no limit on this side", which is worth saying in words.
const bound = (value: string | null | undefined) => (value ? value : <Muted>no bound</Muted>);

// A named region: the page's first tab carries the same word.
export const UserProfile = () => (
  <Card component="section" aria-label="Profile">
    <CardHeader title="Profile" />
    <CardContent sx={{ pt: 0 }}>
      <SimpleShowLayout
        spacing={0}
        sx={{ p: 0, '& .RaSimpleShowLayout-stack': { display: 'grid', gridTemplateColumns: { sm: '1fr 1fr' }, gap: 2 } }}
      >
        <TextField source="client_user_id" label="Client user id" />
        <TextField source="user_id" label="User id" />
        <TextField source="team_id" label="Team" />
        <DateField source="created_on" showTime label={<LocalTimeLabel label="Created" />} />
        <FunctionField<UserRecord>
          label="Fallback time zone"
          render={(r) =>
            r.fallback_time_zone ? `${r.fallback_time_zone.id} (from ${r.fallback_time_zone.source_slug})` : <Muted>Not set</Muted>
          }
        />
        <FunctionField<UserRecord>
          label="Birth date"
          render={(r) => r.fallback_birth_date?.value ?? <Muted>Not set</Muted>}
        />
        <FunctionField<UserRecord> label="Ingestion start" render={(r) => bound(r.ingestion_start)} />
        <FunctionField<UserRecord> label="Ingestion end" render={(r) => bound(r.ingestion_end)} />
      </SimpleShowLayout>
    </CardContent>
  </Card>
);
